package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
)

var update = flag.Bool("update", false, "rewrite testdata/ from the builders in the tests")

// seedFiles are the files kept in testdata/, from the builders the other
// tests use. They are read as they are by TestTestdata; they are too large
// to seed FuzzReadScene (see tinySeeds).
func seedFiles(t testing.TB) map[string][]byte {
	arm := toGLB(t, armScene(t, 1, func(b *bin, d map[string]any) { addProp(b, d, 1, []float64{0, 1, 0}) }))
	external, b := twoTriangles(t, "external.bin")
	outside, _ := twoTriangles(t, "../secret.bin")
	morph, _ := twoTriangles(t, "")
	return map[string][]byte{
		"arm.glb":          arm,
		"morph.gltf":       morph,
		"external.gltf":    external,
		"external.bin":     b.data,
		"outside.gltf":     outside,
		"sparse-skin.gltf": sparseSkin(t),
		"wide.gltf":        wideScene(t),
		"cubic.gltf":       cubicScene(t),
		"truncated.glb":    arm[:len(arm)/2],
	}
}

// TestTestdata reads every file of testdata/ and checks it is what the
// builders make now (run with -update after changing them), what it holds,
// and that it passes the checks FuzzReadScene makes.
func TestTestdata(t *testing.T) {
	seeds := seedFiles(t)
	if *update {
		for name, data := range seeds {
			if err := os.WriteFile(filepath.Join("testdata", name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		file          string
		verts, frames int
		rig           bool
		err           error
	}{
		{"arm.glb", 12, 3, true, nil},
		{"morph.gltf", 6, 2, false, nil},
		{"external.gltf", 6, 2, false, nil},
		{"sparse-skin.gltf", 3, 2, true, nil},
		{"wide.gltf", 3, 2, true, nil},
		{"cubic.gltf", 3, 91, false, nil},
		{"outside.gltf", 0, 0, false, format.ErrOutsideFolder},
		{"truncated.glb", 0, 0, false, format.ErrTruncated},
	}
	fsys := os.DirFS("testdata")
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			stored, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(stored, seeds[tc.file]) {
				t.Errorf("testdata/%s differs from its builder: run go test -run TestTestdata -update", tc.file)
			}
			sc, err := checkScene(t, fsys, tc.file)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sc.Sequence.N() != tc.verts || sc.Sequence.F() != tc.frames || (sc.Rig != nil) != tc.rig {
				t.Errorf("N=%d F=%d rig=%v, want %d, %d, %v", sc.Sequence.N(), sc.Sequence.F(), sc.Rig != nil, tc.verts, tc.frames, tc.rig)
			}
		})
	}
}

// le encodes little-endian values (float32, uint8, uint16 slices).
func le(vs ...any) []byte {
	var buf bytes.Buffer
	for _, v := range vs {
		binary.Write(&buf, binary.LittleEndian, v)
	}
	return buf.Bytes()
}

// triangle is the tiny seeds' one triangle: (0,0,0), (1,0,0), (0,1,0).
var triangle = []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}

// bufferJSON is the start of a tiny seed: the asset, one buffer of n bytes
// at uri and one view over all of it.
func bufferJSON(uri string, n int) string {
	if uri != "" {
		uri = `"uri":"` + uri + `",`
	}
	return fmt.Sprintf(`{"asset":{"version":"2.0"},"buffers":[{%s"byteLength":%d}],"bufferViews":[{"buffer":0,"byteLength":%[2]d}],`, uri, n)
}

// triangleJSON is a .gltf of one unanimated triangle whose positions
// (36 bytes) are in the buffer at uri (the GLB's own when "").
func triangleJSON(uri string) string {
	return bufferJSON(uri, 36) + `"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}]}`
}

// tinyGLB packs a glTF JSON document and its binary buffer into a GLB.
func tinyGLB(doc string, bin []byte) []byte {
	pad := func(b []byte, fill byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, fill)
		}
		return b
	}
	j, b := pad([]byte(doc), ' '), pad(bin, 0)
	out := binary.LittleEndian.AppendUint32([]byte("glTF"), 2)
	out = binary.LittleEndian.AppendUint32(out, uint32(12+8+len(j)+8+len(b)))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(j)))
	out = append(append(out, "JSON"...), j...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(b)))
	return append(append(out, "BIN\x00"...), b...)
}

// tinySeed is one of FuzzReadScene's seeds: the file and the side file
// t.bin beside it.
type tinySeed struct {
	name      string
	doc, bin  []byte
	verts, fr int  // what it holds: vertices, sampled frames
	rig       bool // and whether the file's rig comes with it
}

// tinySeeds are the inputs FuzzReadScene starts from, a few hundred bytes
// each: Go minimizes every input that finds new code by trying to remove
// every run of its bytes, at a cost quadratic in its length, and the
// offspring of kilobyte seeds kept the fuzzer minimizing instead of
// fuzzing. Buffers are side files (the fuzz target's second argument)
// rather than base64, which keeps the documents short and the binary data
// plain bytes to mutate. Together they reach every stage of the reader:
// side files, a data URI, GLB chunks, indices, skins with normalized
// weights, rotation, translation and morph weight channels (LINEAR, STEP,
// CUBICSPLINE) and the ground-truth rig.
func tinySeeds() []tinySeed {
	tri := le(triangle)
	// Two joints at the origin, the child turning 90° about z over one
	// second; vertex 0 on the root, 1 on the child, 2 half and half.
	skin := le(triangle,
		[]uint8{0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0},         // JOINTS_0 at 36
		[]uint8{255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0}, // WEIGHTS_0 at 48
		[]float32{0, 1}, // key times at 60
		[]float32{0, 0, 0, 1, 0, 0, 0.70710677, 0.70710677}) // rotations at 68
	skinned := bufferJSON("t.bin", len(skin)) +
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},` +
		`{"bufferView":0,"byteOffset":36,"componentType":5121,"count":3,"type":"VEC4"},` +
		`{"bufferView":0,"byteOffset":48,"componentType":5121,"normalized":true,"count":3,"type":"VEC4"},` +
		`{"bufferView":0,"byteOffset":60,"componentType":5126,"count":2,"type":"SCALAR"},` +
		`{"bufferView":0,"byteOffset":68,"componentType":5126,"count":2,"type":"VEC4"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}}]}],` +
		`"skins":[{"joints":[1,2]}],"nodes":[{"mesh":0,"skin":0},{"children":[2]},{}],` +
		`"animations":[{"samplers":[{"input":3,"output":4}],"channels":[{"sampler":0,"target":{"node":2,"path":"rotation"}}]}]}`
	// Indexed, with a morph target lifting the triangle by 1 in z over
	// one second.
	morph := le(triangle, []float32{0, 0, 1, 0, 0, 1, 0, 0, 1}, []float32{0, 1}, []uint16{0, 1, 2, 0})
	morphed := bufferJSON("t.bin", len(morph)) +
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},` +
		`{"bufferView":0,"byteOffset":36,"componentType":5126,"count":3,"type":"VEC3"},` +
		`{"bufferView":0,"byteOffset":72,"componentType":5126,"count":2,"type":"SCALAR"},` +
		`{"bufferView":0,"byteOffset":80,"componentType":5123,"count":3,"type":"SCALAR"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":3,"targets":[{"POSITION":1}]}],"weights":[0]}],"nodes":[{"mesh":0}],` +
		`"animations":[{"samplers":[{"input":2,"output":2}],"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}]}]}`
	// The triangle moving along x by a CUBICSPLINE curve (in-tangent,
	// value, out-tangent per key) and turning by STEP rotations.
	cubic := le(triangle, []float32{0, 2}, []float32{0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0}, []float32{0, 0, 0, 1, 0, 0, 1, 0})
	cubicked := bufferJSON("t.bin", len(cubic)) +
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},` +
		`{"bufferView":0,"byteOffset":36,"componentType":5126,"count":2,"type":"SCALAR"},` +
		`{"bufferView":0,"byteOffset":44,"componentType":5126,"count":6,"type":"VEC3"},` +
		`{"bufferView":0,"byteOffset":116,"componentType":5126,"count":2,"type":"VEC4"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],` +
		`"animations":[{"samplers":[{"input":1,"output":2,"interpolation":"CUBICSPLINE"},{"input":1,"output":3,"interpolation":"STEP"}],` +
		`"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}},{"sampler":1,"target":{"node":0,"path":"rotation"}}]}]}`
	// Surface: UVs and normals, two primitives sharing them (one set of
	// vertices), a textured material whose image is the side file.
	surf := le(triangle, []float32{0, 0, 1, 0, 0, 1}, []float32{0, 0, 1, 0, 0, 1, 0, 0, 1}, []uint16{0, 1, 2})
	surfaced := bufferJSON("t.bin", len(surf)) +
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},` +
		`{"bufferView":0,"byteOffset":36,"componentType":5126,"count":3,"type":"VEC2"},` +
		`{"bufferView":0,"byteOffset":60,"componentType":5126,"count":3,"type":"VEC3"},` +
		`{"bufferView":0,"byteOffset":96,"componentType":5123,"count":3,"type":"SCALAR"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1,"NORMAL":2},"indices":3,"material":0},` +
		`{"attributes":{"POSITION":0,"TEXCOORD_0":1,"NORMAL":2},"indices":3}]}],"nodes":[{"mesh":0}],` +
		`"materials":[{"name":"m","pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],` +
		`"textures":[{"source":0,"sampler":0}],"samplers":[{"magFilter":9729,"wrapS":33071}],"images":[{"uri":"t.bin"}]}`
	return []tinySeed{
		{"triangle.gltf", []byte(triangleJSON("t.bin")), tri, 3, 0, false},
		{"surface.gltf", []byte(surfaced), surf, 3, 0, false},
		{"data-uri.gltf", []byte(triangleJSON("data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(tri))), nil, 3, 0, false},
		{"triangle.glb", tinyGLB(triangleJSON(""), tri), nil, 3, 0, false},
		{"skinned.gltf", []byte(skinned), skin, 3, 2, true},
		{"morph.gltf", []byte(morphed), morph, 3, 2, false},
		{"cubic.gltf", []byte(cubicked), cubic, 3, 2, false},
	}
}

// TestTinySeeds checks what each of FuzzReadScene's seeds holds, so the
// fuzzer starts from inputs that reach past the parser, and that they
// stay small.
func TestTinySeeds(t *testing.T) {
	for _, seed := range tinySeeds() {
		t.Run(seed.name, func(t *testing.T) {
			if len(seed.doc) > 850 || len(seed.bin) > 256 {
				t.Errorf("seed of %d + %d bytes: keep seeds small, the fuzzer minimizes in quadratic time", len(seed.doc), len(seed.bin))
			}
			sc, err := checkScene(t, fuzzFS(seed.doc, seed.bin), "x.glb")
			if err != nil {
				t.Fatal(err)
			}
			frames := 0
			if sc.Sequence != nil {
				frames = sc.Sequence.F()
			}
			if len(sc.Mesh.Verts) != seed.verts || frames != seed.fr || (sc.Rig != nil) != seed.rig {
				t.Errorf("N=%d F=%d rig=%v, want %d, %d, %v", len(sc.Mesh.Verts), frames, sc.Rig != nil, seed.verts, seed.fr, seed.rig)
			}
		})
	}
}

// fuzzFS holds a fuzz input: the file as x.glb and the side file t.bin.
func fuzzFS(doc, bin []byte) fs.FS {
	return fstest.MapFS{"x.glb": {Data: doc}, "t.bin": {Data: bin}}
}

// checkScene reads name from fsys and fails t when what ReadScene accepts
// is invalid or differs from a second read; it returns ReadScene's result.
func checkScene(t *testing.T, fsys fs.FS, name string) (*format.Scene, error) {
	t.Helper()
	sc, err := ReadScene(fsys, name, format.SceneOptions{})
	if err != nil {
		return nil, err
	}
	if err := sc.Mesh.Validate(); err != nil {
		t.Fatalf("invalid mesh accepted: %v", err)
	}
	if s := sc.Sequence; s != nil {
		if err := s.Validate(); err != nil {
			t.Fatalf("invalid sequence: %v", err)
		}
		if s.Rest != sc.Mesh {
			t.Fatal("the sequence's rest pose is not the scene's mesh")
		}
	}
	if r := sc.Rig; r != nil {
		if err := r.Validate(); err != nil {
			t.Fatalf("invalid rig: %v", err)
		}
		frames := 0
		for _, c := range r.Clips {
			frames += c.Frames
		}
		if sc.Sequence != nil && frames != sc.Sequence.F() {
			t.Fatalf("rig has %d frames, the sequence %d", frames, sc.Sequence.F())
		}
	}
	again, err := ReadScene(fsys, name, format.SceneOptions{})
	if err != nil {
		t.Fatalf("second read fails: %v", err)
	}
	if !slices.Equal(sc.Mesh.Verts, again.Mesh.Verts) || (sc.Sequence != nil && !slices.Equal(sc.Sequence.Frames, again.Sequence.Frames)) {
		t.Fatal("two reads differ")
	}
	return sc, nil
}

// FuzzReadScene feeds mutations of tinySeeds to ReadScene (as x.glb,
// beside the side file t.bin, the second argument): it must not panic,
// what it accepts must be valid, and reading is deterministic. The larger
// files of testdata/ are read by TestTestdata instead; inputs the fuzzer
// found failing are kept in testdata/fuzz/FuzzReadScene.
func FuzzReadScene(f *testing.F) {
	for _, seed := range tinySeeds() {
		f.Add(seed.doc, seed.bin)
	}
	f.Fuzz(func(t *testing.T, doc, bin []byte) {
		checkScene(t, fuzzFS(doc, bin), "x.glb")
	})
}
