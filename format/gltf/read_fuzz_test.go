package gltf

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
)

var update = flag.Bool("update", false, "rewrite testdata/ from the builders in the tests")

// seedFiles are the small files kept in testdata/, from the builders the
// other tests use: they seed FuzzReadScene and are read as they are.
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
// builders make now (run with -update after changing them).
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
			sc, err := ReadScene(fsys, tc.file, format.SceneOptions{})
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

// FuzzReadScene feeds mutations of testdata/ to ReadScene (beside the
// external buffer, so .gltf files may name it): it must not panic, what it
// accepts must be valid, and reading is deterministic.
func FuzzReadScene(f *testing.F) {
	ents, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	var bin []byte
	for _, e := range ents {
		if e.IsDir() {
			continue // testdata/fuzz: the engine adds its own
		}
		data, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		if e.Name() == "external.bin" {
			bin = data
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"x.glb": {Data: data}, "external.bin": {Data: bin}}
		sc, err := ReadScene(fsys, "x.glb", format.SceneOptions{})
		if err != nil {
			return
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
		again, err := ReadScene(fsys, "x.glb", format.SceneOptions{})
		if err != nil {
			t.Fatalf("second read fails: %v", err)
		}
		if !slices.Equal(sc.Mesh.Verts, again.Mesh.Verts) || (sc.Sequence != nil && !slices.Equal(sc.Sequence.Frames, again.Sequence.Frames)) {
			t.Fatal("two reads differ")
		}
	})
}
