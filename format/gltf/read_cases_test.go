package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/testrig"
	"github.com/meshrig/meshrig/linalg"
)

// bin accumulates a buffer and describes views and accessors into it, so
// tests can hand-write small glTF files with exact layouts.
type bin struct {
	data      []byte
	views     []map[string]any
	accessors []map[string]any
}

// add appends little-endian values (float32, uint8, uint16 slices) as a
// buffer view and returns its index.
func (b *bin) add(v any) int {
	for len(b.data)%4 != 0 {
		b.data = append(b.data, 0)
	}
	off := len(b.data)
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, v)
	b.data = append(b.data, buf.Bytes()...)
	b.views = append(b.views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": buf.Len()})
	return len(b.views) - 1
}

// acc adds an accessor over view and returns its index.
func (b *bin) acc(view, comp, count int, typ string, extra map[string]any) int {
	a := map[string]any{"bufferView": view, "componentType": comp, "count": count, "type": typ}
	for k, v := range extra {
		a[k] = v
	}
	b.accessors = append(b.accessors, a)
	return len(b.accessors) - 1
}

// doc returns the glTF JSON with the buffer as uri (a data URI when uri
// is "").
func (b *bin) doc(t *testing.T, uri string, rest map[string]any) []byte {
	if uri == "" {
		uri = "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.data)
	}
	d := map[string]any{
		"asset":       map[string]any{"version": "2.0"},
		"buffers":     []any{map[string]any{"uri": uri, "byteLength": len(b.data)}},
		"bufferViews": b.views,
		"accessors":   b.accessors,
	}
	for k, v := range rest {
		d[k] = v
	}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const (
	cFloat  = 5126
	cUbyte  = 5121
	cUshort = 5123
)

// twoTriangles builds a mesh node of two primitives (one triangle each),
// the second with a morph target lifting it by 1 in z, animated by a
// LINEAR weights channel 0→1 over one second and a STEP translation.
func twoTriangles(t *testing.T, uri string) ([]byte, *bin) {
	b := &bin{}
	p0 := b.acc(b.add([]float32{0, 0, 0, 1, 0, 0, 0, 1, 0}), cFloat, 3, "VEC3",
		map[string]any{"min": []float64{0, 0, 0}, "max": []float64{1, 1, 0}})
	p1 := b.acc(b.add([]float32{2, 0, 0, 3, 0, 0, 2, 1, 0}), cFloat, 3, "VEC3",
		map[string]any{"min": []float64{2, 0, 0}, "max": []float64{3, 1, 0}})
	idx := b.acc(b.add([]uint16{0, 1, 2}), cUshort, 3, "SCALAR", nil)
	morph := b.acc(b.add([]float32{0, 0, 1, 0, 0, 1, 0, 0, 1}), cFloat, 3, "VEC3", nil)
	times := b.acc(b.add([]float32{0, 1}), cFloat, 2, "SCALAR", map[string]any{"min": []float64{0}, "max": []float64{1}})
	weights := b.acc(b.add([]float32{0, 1}), cFloat, 2, "SCALAR", nil)
	moves := b.acc(b.add([]float32{0, 0, 0, 10, 0, 0}), cFloat, 2, "VEC3", nil)
	return b.doc(t, uri, map[string]any{
		"meshes": []any{map[string]any{"primitives": []any{
			map[string]any{"attributes": map[string]any{"POSITION": p0}, "indices": idx},
			map[string]any{"attributes": map[string]any{"POSITION": p1}, "indices": idx,
				"targets": []any{map[string]any{"POSITION": morph}}},
		}, "weights": []float64{0}}},
		"nodes":  []any{map[string]any{"mesh": 0}},
		"scenes": []any{map[string]any{"nodes": []int{0}}},
		"animations": []any{map[string]any{"name": "lift",
			"samplers": []any{
				map[string]any{"input": times, "output": weights},
				map[string]any{"input": times, "output": moves, "interpolation": "STEP"},
			},
			"channels": []any{
				map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "weights"}},
				map[string]any{"sampler": 1, "target": map[string]any{"node": 0, "path": "translation"}},
			}}},
	}), b
}

func TestMorphTwoPrimitivesExternalBuffer(t *testing.T) {
	doc, b := twoTriangles(t, "data.bin")
	fsys := fstest.MapFS{"m/a.gltf": {Data: doc}, "m/data.bin": {Data: b.data}}
	sc, err := ReadScene(fsys, "m/a.gltf", format.SceneOptions{FPS: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := sc.Sequence
	if s.N() != 6 || len(s.Rest.Tris) != 2 || s.F() != 3 {
		t.Fatalf("N=%d tris=%d F=%d, want 6, 2, 3", s.N(), len(s.Rest.Tris), s.F())
	}
	if sc.Rig != nil {
		t.Error("a morph animation has no skeletal ground truth")
	}
	// At t=0.5: weight 0.5 lifts the second triangle by 0.5; STEP keeps x.
	got := s.Frame(1)[3]
	if want := (linalg.Vec3{2, 0, 0.5}); got.Dist(want) > 1e-6 {
		t.Errorf("t=0.5: vertex 4 at %v, want %v", got, want)
	}
	// At t=1 the STEP translation has switched to 10.
	if got := s.Frame(2)[0]; got.Dist(linalg.Vec3{10, 0, 0}) > 1e-6 {
		t.Errorf("t=1: vertex 1 at %v, want (10,0,0)", got)
	}
}

func TestBufferOutsideFolderRefused(t *testing.T) {
	for _, uri := range []string{"../secret.bin", "/etc/passwd", "file:///etc/passwd", "http://example.com/x.bin", "sub/../../x.bin"} {
		t.Run(uri, func(t *testing.T) {
			doc, b := twoTriangles(t, uri)
			fsys := fstest.MapFS{"m/a.gltf": {Data: doc}, "secret.bin": {Data: b.data}}
			_, err := ReadScene(fsys, "m/a.gltf", format.SceneOptions{})
			if !errors.Is(err, format.ErrOutsideFolder) {
				t.Fatalf("uri %q: err = %v, want ErrOutsideFolder", uri, err)
			}
		})
	}
}

func TestSparseAndNormalizedSkin(t *testing.T) {
	b := &bin{}
	// Base positions all zero; a sparse accessor sets vertices 1 and 2.
	base := b.add(make([]float32, 9))
	sparseIdx := b.add([]uint16{1, 2})
	sparseVal := b.add([]float32{1, 0, 0, 0, 1, 0})
	pos := b.acc(base, cFloat, 3, "VEC3", map[string]any{
		"min": []float64{0, 0, 0}, "max": []float64{1, 1, 0},
		"sparse": map[string]any{"count": 2,
			"indices": map[string]any{"bufferView": sparseIdx, "componentType": cUshort},
			"values":  map[string]any{"bufferView": sparseVal}}})
	joints := b.acc(b.add([]uint8{0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}), cUbyte, 3, "VEC4", nil)
	// Normalized ubyte weights: vertex 0 half/half, vertex 1 all joint 0, vertex 2 all joint 1.
	wts := b.acc(b.add([]uint8{128, 127, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0}), cUbyte, 3, "VEC4", map[string]any{"normalized": true})
	ibm := b.acc(b.add([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1}), cFloat, 2, "MAT4", nil)
	times := b.acc(b.add([]float32{0, 1}), cFloat, 2, "SCALAR", map[string]any{"min": []float64{0}, "max": []float64{1}})
	s := math.Sqrt(0.5)
	rots := b.acc(b.add([]float32{0, 0, 0, 1, 0, 0, float32(s), float32(s)}), cFloat, 2, "VEC4", nil)
	doc := b.doc(t, "", map[string]any{
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{
			"attributes": map[string]any{"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": wts}}}}},
		"skins": []any{map[string]any{"joints": []int{1, 2}, "inverseBindMatrices": ibm}},
		"nodes": []any{
			map[string]any{"mesh": 0, "skin": 0},
			map[string]any{"name": "a", "children": []int{2}},
			map[string]any{"name": "b", "translation": []float64{1, 0, 0}},
		},
		"scenes": []any{map[string]any{"nodes": []int{0, 1}}},
		"animations": []any{map[string]any{"samplers": []any{map[string]any{"input": times, "output": rots}},
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 2, "path": "rotation"}}}}},
	})
	sc, err := ReadScene(fstest.MapFS{"s.gltf": {Data: doc}}, "s.gltf", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Mesh.Verts[2]; got != (linalg.Vec3{0, 1, 0}) {
		t.Fatalf("sparse vertex 3 = %v, want (0,1,0)", got)
	}
	if sc.Rig == nil {
		t.Fatal("no ground truth for a skinned file")
	}
	in := sc.Rig.Skin[0]
	if math.Abs(in.Weight[0]-128.0/255) > 1e-3 && math.Abs(in.Weight[0]-127.0/255) > 1e-3 {
		t.Errorf("normalized weights read as %v", in.Weight)
	}
	// Frame 2 (t=1): joint b turned 90° about z around (1,0,0): vertex 3
	// (0,1,0), fully on b, goes to (0,-1,0)+(1,0,0)... = (1-1, -1+0)…
	v := sc.Sequence.Frame(1)[2]
	want := linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, math.Pi/2).Rotate(linalg.Vec3{-1, 1, 0}).Add(linalg.Vec3{1, 0, 0})
	if v.Dist(want) > 1e-6 {
		t.Errorf("skinned vertex at %v, want %v", v, want)
	}
	if sc.Rig.Skeleton.Joints[1].Head.Dist(linalg.Vec3{1, 0, 0}) > 1e-6 {
		t.Errorf("joint b head %v, want (1,0,0)", sc.Rig.Skeleton.Joints[1].Head)
	}
}

func TestInterpolationKnownAnswers(t *testing.T) {
	lin := channel{path: gltflib.TRSTranslation, interp: gltflib.InterpolationLinear, ncomp: 1,
		times: []float64{0, 1, 3}, values: []float64{0, 10, 30}}
	step := lin
	step.interp = gltflib.InterpolationStep
	// CUBICSPLINE keys (in-tangent, value, out-tangent): p(t) = t² on [0,2]
	// has p'(0)=0, p'(2)=4; Hermite reproduces it exactly.
	cubic := channel{path: gltflib.TRSTranslation, interp: gltflib.InterpolationCubicSpline, ncomp: 1,
		times: []float64{0, 2}, values: []float64{0, 0, 0, 4, 4, 4}}
	rot := channel{path: gltflib.TRSRotation, interp: gltflib.InterpolationLinear, ncomp: 4,
		times: []float64{0, 1}, values: []float64{0, 0, 0, 1, 0, 0, 1, 0}}
	out := make([]float64, 4)
	for _, tc := range []struct {
		name string
		ch   *channel
		t    float64
		want float64
	}{
		{"linear at key", &lin, 1, 10},
		{"linear between", &lin, 2, 20},
		{"linear before", &lin, -1, 0},
		{"linear after", &lin, 9, 30},
		{"step between", &step, 2.9, 10},
		{"cubic mid", &cubic, 1, 1},
		{"cubic quarter", &cubic, 0.5, 0.25},
	} {
		tc.ch.sample(tc.t, out)
		if math.Abs(out[0]-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.name, out[0], tc.want)
		}
	}
	// Slerp half-way from identity to 180° about z is 90° about z.
	rot.sample(0.5, out)
	q := quat(out)
	if math.Abs(q.Angle()-math.Pi/2) > 1e-9 || math.Abs(math.Abs(q.Z)-math.Sqrt(0.5)) > 1e-9 {
		t.Errorf("slerp half-way = %+v", q)
	}
}

func TestBadFiles(t *testing.T) {
	var glb bytes.Buffer
	if err := Write(&glb, testrig.Tube(t, 3, linalg.Vec3{}), format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	full := glb.Bytes()
	cases := map[string]struct {
		data []byte
		want error
	}{
		"truncated GLB":      {full[:len(full)/2], format.ErrTruncated},
		"truncated header":   {full[:30], format.ErrTruncated},
		"empty":              {nil, nil},
		"not json":           {[]byte("hello"), nil},
		"no meshes":          {[]byte(`{"asset":{"version":"2.0"}}`), format.ErrNoFrames},
		"bad accessor index": {[]byte(`{"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{"POSITION":7}}]}],"nodes":[{"mesh":0}]}`), nil},
		"cycle":              {[]byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"children":[0]}]}`), nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ReadScene(fstest.MapFS{"x.glb": {Data: tc.data}}, "x.glb", format.SceneOptions{})
			if err == nil {
				t.Fatal("bad file accepted")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// Asking for a clip the file lacks names the ones it has.
	doc, _ := twoTriangles(t, "")
	_, err := ReadScene(fstest.MapFS{"a.gltf": {Data: doc}}, "a.gltf", format.SceneOptions{Clip: "walk"})
	if err == nil || !strings.Contains(err.Error(), "lift") {
		t.Errorf("missing clip: %v", err)
	}
}

func FuzzReadScene(f *testing.F) {
	var glb bytes.Buffer
	if err := Write(&glb, testrig.Tube(f, 2, linalg.Vec3{}), format.WriteOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Add(glb.Bytes())
	doc, _ := twoTriangles(&testing.T{}, "")
	f.Add(doc)
	f.Add([]byte(`{"asset":{"version":"2.0"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ReadScene(fstest.MapFS{"x.glb": {Data: data}}, "x.glb", format.SceneOptions{FPS: 10})
		if err != nil {
			return
		}
		if err := sc.Mesh.Validate(); err != nil {
			t.Fatalf("invalid mesh accepted: %v", err)
		}
		if sc.Sequence != nil {
			if err := sc.Sequence.Validate(); err != nil {
				t.Fatalf("invalid sequence: %v", err)
			}
		}
		if sc.Rig != nil {
			if err := sc.Rig.Validate(); err != nil {
				t.Fatalf("invalid rig: %v", err)
			}
		}
		_ = fmt.Sprint(sc.Mesh.NumPolys())
	})
}
