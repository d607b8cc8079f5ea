package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/format"
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
func (b *bin) doc(t testing.TB, uri string, rest map[string]any) []byte {
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
func twoTriangles(t testing.TB, uri string) ([]byte, *bin) {
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
	got := s.FrameInto(nil, 1)[3]
	if want := (linalg.Vec3{2, 0, 0.5}); got.Dist(want) > 1e-6 {
		t.Errorf("t=0.5: vertex 4 at %v, want %v", got, want)
	}
	// At t=1 the STEP translation has switched to 10.
	if got := s.FrameInto(nil, 2)[0]; got.Dist(linalg.Vec3{10, 0, 0}) > 1e-6 {
		t.Errorf("t=1: vertex 1 at %v, want (10,0,0)", got)
	}
}

// openLog records the names opened in an fs.FS.
type openLog struct {
	fs.FS
	names []string
}

func (o *openLog) Open(name string) (fs.File, error) {
	o.names = append(o.names, name)
	return o.FS.Open(name)
}

func TestBufferOutsideFolderRefused(t *testing.T) {
	for _, uri := range []string{"../secret.bin", "/etc/passwd", "file:///etc/passwd", "http://example.com/x.bin",
		"sub/../../x.bin", "%2e%2e/secret.bin", `..\secret.bin`, `C:\secret.bin`, "./../secret.bin"} {
		t.Run(uri, func(t *testing.T) {
			doc, b := twoTriangles(t, uri)
			fsys := &openLog{FS: fstest.MapFS{"m/a.gltf": {Data: doc}, "secret.bin": {Data: b.data}}}
			_, err := ReadScene(fsys, "m/a.gltf", format.SceneOptions{})
			if !errors.Is(err, format.ErrOutsideFolder) {
				t.Fatalf("uri %q: err = %v, want ErrOutsideFolder", uri, err)
			}
			if !strings.Contains(err.Error(), "secret.bin") && !strings.Contains(err.Error(), "passwd") && !strings.Contains(err.Error(), "x.bin") {
				t.Errorf("the error does not name the uri: %v", err)
			}
			if len(fsys.names) != 1 {
				t.Errorf("opened %q, want only m/a.gltf", fsys.names)
			}
		})
	}
	// Inside the folder, escaped and "./" names resolve. (Names with ".."
	// are refused even when they come back, as fs.FS names cannot hold it.)
	for _, uri := range []string{"data.bin", "./data.bin", "d%61ta.bin", "./sub/data.bin"} {
		doc, b := twoTriangles(t, uri)
		fsys := fstest.MapFS{"m/a.gltf": {Data: doc}, "m/data.bin": {Data: b.data}, "m/sub/data.bin": {Data: b.data}}
		if _, err := ReadScene(fsys, "m/a.gltf", format.SceneOptions{}); err != nil {
			t.Errorf("uri %q: %v", uri, err)
		}
	}
}

// sparseSkin is a triangle whose positions are a sparse accessor over
// zeros, skinned with normalized ubyte weights to joints a (origin) and
// b (child at x=1), which turns 90° about z over one second.
func sparseSkin(t testing.TB) []byte {
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
	return b.doc(t, "", map[string]any{
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
}

func TestSparseAndNormalizedSkin(t *testing.T) {
	sc, err := ReadScene(fstest.MapFS{"s.gltf": {Data: sparseSkin(t)}}, "s.gltf", format.SceneOptions{})
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
	v := sc.Sequence.FrameInto(nil, 1)[2]
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
	// CUBICSPLINE keys (in-tangent, value, out-tangent) of p(t) = t² at
	// t = 0, 1, 3: tangents p' = 2t, scaled by each interval inside the
	// Hermite form, which reproduces a quadratic exactly.
	cubic := channel{path: gltflib.TRSTranslation, interp: gltflib.InterpolationCubicSpline, ncomp: 1,
		times: []float64{0, 1, 3}, values: []float64{0, 0, 0, 2, 1, 2, 6, 9, 6}}
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
		{"step at key", &step, 1, 10},
		{"step just before key", &step, 0.999, 0},
		{"cubic at first key", &cubic, 0, 0},
		{"cubic at middle key", &cubic, 1, 1},
		{"cubic at last key", &cubic, 3, 9},
		{"cubic quarter", &cubic, 0.5, 0.25},
		{"cubic in the long interval", &cubic, 2, 4},
		{"cubic in the long interval, off centre", &cubic, 2.5, 6.25},
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
	// Slerp at a quarter keeps a constant angular speed: 45° (nlerp would
	// give 53°).
	rot.sample(0.25, out)
	if a := quat(out).Angle(); math.Abs(a-math.Pi/4) > 1e-9 {
		t.Errorf("slerp at a quarter turns %v°, want 45°", a*180/math.Pi)
	}
	// CUBICSPLINE rotations come out unit length: with zero tangents the
	// midpoint of identity and 180° about z is (0,0,½,½) before normalizing.
	crot := channel{path: gltflib.TRSRotation, interp: gltflib.InterpolationCubicSpline, ncomp: 4,
		times: []float64{0, 1}, values: make([]float64, 24)}
	copy(crot.values[4:8], []float64{0, 0, 0, 1})
	copy(crot.values[16:20], []float64{0, 0, 1, 0})
	crot.sample(0.5, out)
	if n := math.Sqrt(out[0]*out[0] + out[1]*out[1] + out[2]*out[2] + out[3]*out[3]); math.Abs(n-1) > 1e-12 || math.Abs(out[2]-math.Sqrt(0.5)) > 1e-12 {
		t.Errorf("cubic rotation midpoint %v, want (0,0,√½,√½)", out)
	}
}

// cubicScene is one triangle whose node follows p(t) = (t², 0, 0) through
// CUBICSPLINE keys at t = 0, 1, 3.
func cubicScene(t testing.TB) []byte {
	b := &bin{}
	pos := b.f32("VEC3", 0, 0, 0, 1, 0, 0, 0, 1, 0)
	times := b.f32("SCALAR", 0, 1, 3)
	out := b.f32("VEC3", 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 2, 0, 0, 6, 0, 0, 9, 0, 0, 6, 0, 0)
	return b.doc(t, "", map[string]any{
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": pos}}}}},
		"nodes":  []any{map[string]any{"mesh": 0}},
		"scenes": []any{map[string]any{"nodes": []int{0}}},
		"animations": []any{map[string]any{"name": "square",
			"samplers": []any{map[string]any{"input": times, "output": out, "interpolation": "CUBICSPLINE"}},
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "translation"}}}}},
	})
}

func TestCubicSplineFile(t *testing.T) {
	sc := readMap(t, cubicScene(t), format.SceneOptions{FPS: 2})
	s := sc.Sequence
	if s.F() != 7 || s.Clips[0].FPS != 2 || s.Clips[0].Name != "square" {
		t.Fatalf("F=%d clips %+v, want 7 frames of \"square\" at 2 fps", s.F(), s.Clips)
	}
	for f := 0; f < s.F(); f++ {
		tm := float64(f) / 2
		if got := s.FrameInto(nil, f)[0]; got.Dist(linalg.Vec3{tm * tm, 0, 0}) > 1e-6 {
			t.Errorf("t=%v: vertex 1 at %v, want (%v,0,0)", tm, got, tm*tm)
		}
	}
	if sc.Rig != nil {
		t.Error("an unskinned file has no ground-truth rig")
	}
	// Uneven keys and no rate asked: 30 fps from the first to the last key.
	if s := readMap(t, cubicScene(t), format.SceneOptions{}).Sequence; s.F() != 91 || s.Clips[0].FPS != 30 {
		t.Errorf("default sampling: %d frames at %v fps, want 91 at 30", s.F(), s.Clips[0].FPS)
	}
}

// toGLB converts a .gltf with one data-URI buffer into a GLB.
func toGLB(t testing.TB, gltfJSON []byte) []byte {
	doc := new(gltflib.Document)
	if err := gltflib.NewDecoder(bytes.NewReader(gltfJSON)).Decode(doc); err != nil {
		t.Fatal(err)
	}
	doc.Buffers[0].URI = ""
	var out bytes.Buffer
	enc := gltflib.NewEncoder(&out)
	enc.AsBinary = true
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// mutate returns a .gltf document changed by edit.
func mutate(t *testing.T, gltfJSON []byte, edit func(d map[string]any)) []byte {
	var d map[string]any
	if err := json.Unmarshal(gltfJSON, &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// item returns element k of the top-level array key of a decoded document.
func item(d map[string]any, key string, k int) map[string]any {
	return d[key].([]any)[k].(map[string]any)
}

func TestBadFiles(t *testing.T) {
	full := toGLB(t, armScene(t, 1, nil))
	// A GLB cut short whose header was fixed up to match: the binary
	// chunk's own length still tells.
	cut := append([]byte(nil), full[:len(full)-40]...)
	binary.LittleEndian.PutUint32(cut[8:], uint32(len(cut)))
	cubic := cubicScene(t)
	cases := map[string]struct {
		data []byte
		want error
		msg  string // a part of the error message
	}{
		"truncated GLB":          {full[:len(full)/2], format.ErrTruncated, "at byte"},
		"truncated header":       {full[:10], format.ErrTruncated, "GLB header"},
		"truncated binary chunk": {cut, format.ErrTruncated, "chunk at byte"},
		"GLB version 1":          {append([]byte("glTF\x01\x00\x00\x00"), full[8:]...), format.ErrUnsupported, "version 1"},
		"empty":                  {nil, nil, "glTF"},
		"not json":               {[]byte("hello"), nil, "not a valid glTF"},
		"no meshes":              {[]byte(`{"asset":{"version":"2.0"}}`), format.ErrNoFrames, "no triangle mesh"},
		"bad accessor index":     {[]byte(`{"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{"POSITION":7}}]}],"nodes":[{"mesh":0}]}`), nil, "accessor 7 does not exist"},
		"cycle":                  {[]byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"children":[0]}]}`), nil, "cycle"},
		"two parents":            {[]byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[2]},{"children":[2]},{}]}`), nil, "more than one parent"},
		"huge count":             {mutate(t, cubic, func(d map[string]any) { item(d, "accessors", 0)["count"] = 1 << 62 }), nil, "count"},
		"huge byte offset":       {mutate(t, cubic, func(d map[string]any) { item(d, "accessors", 0)["byteOffset"] = 1 << 62 }), nil, "overrun"},
		"huge view offset":       {mutate(t, cubic, func(d map[string]any) { item(d, "bufferViews", 0)["byteOffset"] = 1 << 62 }), format.ErrTruncated, "overruns buffer"},
		"short buffer":           {mutate(t, cubic, func(d map[string]any) { item(d, "buffers", 0)["byteLength"] = 1 << 20 }), format.ErrTruncated, "holds"},
		"cubic output too short": {mutate(t, cubic, func(d map[string]any) { item(d, "accessors", 2)["count"] = 8 }), nil, "output values"},
		"key times decrease": {mutate(t, cubic, func(d map[string]any) { // times 1, 0, 0 from the positions
			item(d, "accessors", 1)["bufferView"], item(d, "accessors", 1)["byteOffset"] = 0, 12
		}), nil, "decrease"},
		"missing sampler":       {mutate(t, cubic, func(d map[string]any) { item(item(d, "animations", 0), "channels", 0)["sampler"] = 3 }), nil, "sampler 3 does not exist"},
		"index out of range":    {mutate(t, armScene(t, 1, nil), func(d map[string]any) { item(d, "accessors", 0)["count"] = 4 }), nil, "index 4 out of range"},
		"joint out of range":    {mutate(t, armScene(t, 1, nil), func(d map[string]any) { item(d, "skins", 0)["joints"] = []int{0} }), nil, "joint 1 out of range"},
		"skin joint missing":    {mutate(t, armScene(t, 1, nil), func(d map[string]any) { item(d, "skins", 0)["joints"] = []int{0, 9} }), nil, "joint node 9 does not exist"},
		"too few bind matrices": {mutate(t, armScene(t, 1, nil), func(d map[string]any) { item(d, "skins", 0)["joints"] = []int{0, 1, 2} }), nil, "inverse bind matrices"},
		"non-finite position":   {nonFinite(t), nil, "non-finite"},
		"Draco required":        {mutate(t, cubic, func(d map[string]any) { d["extensionsRequired"] = []string{"KHR_draco_mesh_compression"} }), format.ErrUnsupported, "KHR_draco_mesh_compression"},
		"scene missing":         {mutate(t, cubic, func(d map[string]any) { d["scene"] = 4 }), nil, "scene 4 does not exist"},
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
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want it to say %q", err, tc.msg)
			}
		})
	}
}

// nonFinite is cubicScene with a NaN in its first vertex.
func nonFinite(t *testing.T) []byte {
	b := &bin{}
	pos := b.f32("VEC3", float32(math.NaN()), 0, 0, 1, 0, 0, 0, 1, 0)
	return b.doc(t, "", map[string]any{
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": pos}}}}},
		"nodes":  []any{map[string]any{"mesh": 0}},
	})
}

func TestOptionsErrors(t *testing.T) {
	doc, _ := twoTriangles(t, "")
	fsys := fstest.MapFS{"a.gltf": {Data: doc}}
	// Asking for a clip the file lacks names the ones it has.
	_, err := ReadScene(fsys, "a.gltf", format.SceneOptions{Clip: "walk"})
	if err == nil || !strings.Contains(err.Error(), "lift") {
		t.Errorf("missing clip: %v", err)
	}
	for _, fps := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := ReadScene(fsys, "a.gltf", format.SceneOptions{FPS: fps}); err == nil {
			t.Errorf("FPS %v accepted", fps)
		}
	}
	if _, err := ReadScene(fsys, "missing.gltf", format.SceneOptions{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// A .gltf whose buffer file is absent says which.
	ext, _ := twoTriangles(t, "data.bin")
	_, err = ReadScene(fstest.MapFS{"a.gltf": {Data: ext}}, "a.gltf", format.SceneOptions{})
	if err == nil || !strings.Contains(err.Error(), "data.bin") {
		t.Errorf("missing buffer file: %v", err)
	}
}

// TestClipNames: unnamed animations are clip_K, repeated names get a
// suffix, and opt.Clip keeps one.
func TestClipNames(t *testing.T) {
	doc := mutate(t, cubicScene(t), func(d map[string]any) {
		an := item(d, "animations", 0)
		unnamed := map[string]any{"samplers": an["samplers"], "channels": an["channels"]}
		d["animations"] = []any{an, an, unnamed}
	})
	sc := readMap(t, doc, format.SceneOptions{FPS: 1})
	var names []string
	for _, c := range sc.Sequence.Clips {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "square,square_2,clip_2" {
		t.Errorf("clip names %q, want square, square_2, clip_2", names)
	}
	one := readMap(t, doc, format.SceneOptions{FPS: 1, Clip: "square_2"})
	if len(one.Sequence.Clips) != 1 || one.Sequence.F() != 4 {
		t.Errorf("opt.Clip kept %+v", one.Sequence.Clips)
	}
}
