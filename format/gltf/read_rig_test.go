package gltf

import (
	"math"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

// f32 adds float data as an accessor of type typ.
func (b *bin) f32(typ string, v ...float32) int {
	return b.acc(b.add(v), cFloat, len(v)/typeSize(typ), typ, nil)
}

// u8 adds unsigned bytes as an accessor of type typ.
func (b *bin) u8(typ string, normalized bool, v ...uint8) int {
	var extra map[string]any
	if normalized {
		extra = map[string]any{"normalized": true}
	}
	return b.acc(b.add(v), cUbyte, len(v)/typeSize(typ), typ, extra)
}

// translations adds inverse bind matrices that are translations by −head
// for each head x (heads on the x axis).
func (b *bin) translations(heads ...float32) int {
	var v []float32
	for _, x := range heads {
		v = append(v, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, 0, 0, 1)
	}
	return b.f32("MAT4", v...)
}

func typeSize(typ string) int {
	return map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[typ]
}

// rotZ returns glTF (x, y, z, w) rotations about z by the given angles.
func rotZ(angles ...float64) []float32 {
	var v []float32
	for _, a := range angles {
		v = append(v, 0, 0, float32(math.Sin(a/2)), float32(math.Cos(a/2)))
	}
	return v
}

// armScene is a two-joint arm: node 0 "base" at the origin with child
// node 1 "arm" at x=1. Mesh 0 is a strip from x=0 to 2 (6 vertices,
// x=0 on base, x=1 half and half, x=2 on arm) on skin 0 = [base, arm];
// mesh 1 a triangle at x=2.5..3 on skin 1 = [arm, base] (joints listed in
// the other order). Animation "bend" over keys 0, 1, 2 s turns the arm
// 0°, 90°, 180° about z and slides the base by (0,0,0), (0,1,0), (1,1,0).
// armIBM is skin 1's bind position of the arm (1 agrees with skin 0).
// mod may add to the document before it is written.
func armScene(t testing.TB, armIBM float32, mod func(b *bin, d map[string]any)) []byte {
	b := &bin{}
	strip := b.f32("VEC3", 0, 0, 0, 0, 0.5, 0, 1, 0, 0, 1, 0.5, 0, 2, 0, 0, 2, 0.5, 0)
	stripIdx := b.acc(b.add([]uint16{0, 2, 1, 1, 2, 3, 2, 4, 3, 3, 4, 5}), cUshort, 12, "SCALAR", nil)
	stripJ := b.u8("VEC4", false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
	stripW := b.f32("VEC4", 1, 0, 0, 0, 1, 0, 0, 0, .5, .5, 0, 0, .5, .5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
	tri := b.f32("VEC3", 2.5, 0, 0, 3, 0, 0, 2.5, 0.5, 0)
	triJ := b.u8("VEC4", false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	triW := b.f32("VEC4", 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
	times := b.f32("SCALAR", 0, 1, 2)
	bend := b.f32("VEC4", rotZ(0, math.Pi/2, math.Pi)...)
	slide := b.f32("VEC3", 0, 0, 0, 0, 1, 0, 1, 1, 0)
	d := map[string]any{
		"meshes": []any{
			map[string]any{"primitives": []any{map[string]any{"indices": stripIdx,
				"attributes": map[string]any{"POSITION": strip, "JOINTS_0": stripJ, "WEIGHTS_0": stripW}}}},
			map[string]any{"primitives": []any{map[string]any{
				"attributes": map[string]any{"POSITION": tri, "JOINTS_0": triJ, "WEIGHTS_0": triW}}}},
		},
		"skins": []any{
			map[string]any{"joints": []int{0, 1}, "inverseBindMatrices": b.translations(0, 1)},
			map[string]any{"joints": []int{1, 0}, "inverseBindMatrices": b.translations(armIBM, 0)},
		},
		"nodes": []any{
			map[string]any{"name": "base", "children": []int{1}},
			map[string]any{"name": "arm", "translation": []float64{1, 0, 0}},
			map[string]any{"mesh": 0, "skin": 0},
			map[string]any{"mesh": 1, "skin": 1},
		},
		"scenes": []any{map[string]any{"nodes": []int{0, 2, 3}}},
		"animations": []any{map[string]any{"name": "bend",
			"samplers": []any{
				map[string]any{"input": times, "output": bend},
				map[string]any{"input": times, "output": slide},
			},
			"channels": []any{
				map[string]any{"sampler": 0, "target": map[string]any{"node": 1, "path": "rotation"}},
				map[string]any{"sampler": 1, "target": map[string]any{"node": 0, "path": "translation"}},
			}}},
	}
	if mod != nil {
		mod(b, d)
	}
	return b.doc(t, "", d)
}

// addProp adds an unskinned triangle on a new node with the given
// translation, as a child of parent (-1: a scene root), and returns the
// new node's index.
func addProp(b *bin, d map[string]any, parent int, at []float64) int {
	pos := b.f32("VEC3", 0, 0, 0, 0.2, 0, 0, 0, 0.2, 0)
	meshes := d["meshes"].([]any)
	d["meshes"] = append(meshes, map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": pos}}}})
	nodes := d["nodes"].([]any)
	node := len(nodes)
	d["nodes"] = append(nodes, map[string]any{"mesh": len(meshes), "translation": at})
	if parent >= 0 {
		p := nodes[parent].(map[string]any)
		ch, _ := p["children"].([]int)
		p["children"] = append(ch, node)
	} else {
		sc := d["scenes"].([]any)[0].(map[string]any)
		sc["nodes"] = append(sc["nodes"].([]int), node)
	}
	return node
}

// readMap reads one in-memory glTF file.
func readMap(t *testing.T, data []byte, opt format.SceneOptions) *format.Scene {
	t.Helper()
	sc, err := ReadScene(fstest.MapFS{"a.gltf": {Data: data}}, "a.gltf", opt)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// replays checks that the scene's rig exists, is valid and reproduces
// every sampled frame.
func replays(t *testing.T, sc *format.Scene) metric.Report {
	t.Helper()
	if sc.Rig == nil {
		t.Fatal("no ground-truth rig")
	}
	if err := sc.Rig.Validate(); err != nil {
		t.Fatal(err)
	}
	rep, err := metric.Compare(sc.Sequence, sc.Rig)
	if err != nil {
		t.Fatal(err)
	}
	if rep.MaxPercent > 1e-4 {
		t.Fatalf("the rig replays the frames at Max%% %.3g", rep.MaxPercent)
	}
	return rep
}

func TestTwoSkinsShareJoints(t *testing.T) {
	sc := readMap(t, armScene(t, 1, nil), format.SceneOptions{})
	s := sc.Sequence
	if s.N() != 9 || s.F() != 3 || len(sc.Mesh.Tris) != 5 {
		t.Fatalf("N=%d F=%d tris=%d, want 9, 3, 5", s.N(), s.F(), len(sc.Mesh.Tris))
	}
	// t=1 s: the arm turned 90° about (1,0,0), the base slid by (0,1,0):
	// (2,0,0) → (1,1,0) + (0,1,0); the other skin's (3,0,0) → (1,3,0).
	for _, c := range []struct {
		v    int
		want linalg.Vec3
	}{{4, linalg.Vec3{1, 2, 0}}, {7, linalg.Vec3{1, 3, 0}}, {0, linalg.Vec3{0, 1, 0}}} {
		if got := s.FrameInto(nil, 1)[c.v]; got.Dist(c.want) > 1e-6 {
			t.Errorf("t=1: vertex %d at %v, want %v", c.v, got, c.want)
		}
	}
	replays(t, sc)
	sk := sc.Rig.Skeleton
	if sk.Len() != 2 || sk.Joints[0].Name != "base" || sk.Joints[1].Name != "arm" || sk.Joints[1].Head != (linalg.Vec3{1, 0, 0}) {
		t.Errorf("skeleton %+v, want base at the origin and arm at (1,0,0)", sk.Joints)
	}
	// The second skin's slot 0 (arm) maps to rig joint 1.
	if in := sc.Rig.Skin[7]; in.Joint[0] != 1 || in.Weight[0] != 1 {
		t.Errorf("second skin's vertex: %+v, want all on the arm", in)
	}
}

func TestRigDropped(t *testing.T) {
	cases := map[string][]byte{
		// Skin 1 binds the arm at x=1.5, skin 0 at x=1: no single joint.
		"skins disagree": armScene(t, 1.5, nil),
		// An unskinned prop that moves on its own, under no joint.
		"prop moves alone": armScene(t, 1, func(b *bin, d map[string]any) {
			n := addProp(b, d, -1, []float64{0, 3, 0})
			an := d["animations"].([]any)[0].(map[string]any)
			times := b.f32("SCALAR", 0, 2)
			an["samplers"] = append(an["samplers"].([]any), map[string]any{"input": times, "output": b.f32("VEC3", 0, 3, 0, 5, 3, 0)})
			an["channels"] = append(an["channels"].([]any), map[string]any{"sampler": 2, "target": map[string]any{"node": n, "path": "translation"}})
		}),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			sc := readMap(t, data, format.SceneOptions{})
			if sc.Rig != nil {
				t.Error("a rig that cannot replay the frames was returned")
			}
			if sc.Sequence == nil || sc.Sequence.F() != 3 {
				t.Error("the sequence is lost with the rig")
			}
		})
	}
}

func TestUnskinnedProps(t *testing.T) {
	t.Run("on a joint", func(t *testing.T) {
		sc := readMap(t, armScene(t, 1, func(b *bin, d map[string]any) { addProp(b, d, 1, []float64{0, 1, 0}) }), format.SceneOptions{})
		// Rest: arm at (1,0,0) + (0,1,0); at t=1 the prop's origin turns to
		// (1,0,0) + (−1,0,0) and slides by (0,1,0).
		if got := sc.Mesh.Verts[9]; got != (linalg.Vec3{1, 1, 0}) {
			t.Errorf("prop rests at %v, want (1,1,0)", got)
		}
		if got := sc.Sequence.FrameInto(nil, 1)[9]; got.Dist(linalg.Vec3{0, 1, 0}) > 1e-6 {
			t.Errorf("prop at t=1: %v, want (0,1,0)", got)
		}
		replays(t, sc)
		if in := sc.Rig.Skin[9]; sc.Rig.Skeleton.Joints[in.Joint[0]].Name != "arm" || in.Weight[0] != 1 {
			t.Errorf("prop vertex skin %+v, want all on the arm", in)
		}
	})
	t.Run("static, under no joint", func(t *testing.T) {
		sc := readMap(t, armScene(t, 1, func(b *bin, d map[string]any) { addProp(b, d, -1, []float64{5, 0, 0}) }), format.SceneOptions{})
		replays(t, sc)
		sk := sc.Rig.Skeleton
		if sk.Len() != 3 || sk.Joints[0].Name != "root" || sk.Joints[1].Name != "base" {
			t.Fatalf("skeleton %+v, want a still root above base", sk.Joints)
		}
		if in := sc.Rig.Skin[9]; in.Joint[0] != 0 || in.Weight[0] != 1 {
			t.Errorf("static prop skin %+v, want all on the still root", in)
		}
	})
}

// TestMoreThanFourInfluences: five root joints (a forest) slide along x
// by 1…5; vertex 0 is weighted 0.3, 0.2, 0.2, 0.1 on joints 0–3 in
// JOINTS_0 and 0.2 on joint 4 in JOINTS_1. The sequence follows all five;
// the rig keeps the four largest and hangs the forest under a still root.
func TestMoreThanFourInfluences(t *testing.T) {
	sc := readMap(t, wideScene(t), format.SceneOptions{})
	if got := sc.Sequence.FrameInto(nil, 1)[0]; math.Abs(got[0]-2.7) > 1e-6 {
		t.Errorf("vertex 0 at t=1: %v, want x = 0.3·1+0.2·2+0.2·3+0.1·4+0.2·5 = 2.7", got)
	}
	r := sc.Rig
	if r == nil {
		t.Fatal("no rig")
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if r.Skeleton.Len() != 6 || r.Skeleton.Joints[0].Name != "root_" {
		t.Fatalf("skeleton %+v, want a still root root_ above the five", r.Skeleton.Joints)
	}
	in := r.Skin[0]
	var sum float64
	for k, j := range in.Joint {
		sum += in.Weight[k]
		if r.Skeleton.Joints[j].Name == "d" && in.Weight[k] > 0 {
			t.Errorf("the smallest influence (d, 0.1) was kept: %+v", in)
		}
	}
	if math.Abs(sum-1) > 1e-12 || math.Abs(in.Weight[0]-1.0/3) > 1e-6 {
		t.Errorf("kept weights %v, want 0.3, 0.2, 0.2, 0.2 renormalized", in.Weight)
	}
	// The rig's vertex 0 follows its four joints: (0.3·1+0.2·2+0.2·3+0.2·5)/0.9.
	got := r.Frame(nil, 0, 1)[0]
	if math.Abs(got[0]-2.3/0.9) > 1e-6 {
		t.Errorf("rig's vertex 0 at t=1: %v, want x = %v", got, 2.3/0.9)
	}
}

// wideScene: five root joints slide along x by 1…5 over one second; vertex
// 0 of a triangle has 0.3, 0.2, 0.2, 0.1 on joints 0–3 in JOINTS_0 and 0.2
// on joint 4 in JOINTS_1. Joint 0 is named "root".
func wideScene(t testing.TB) []byte {
	b := &bin{}
	pos := b.f32("VEC3", 0, 0, 0, 1, 0, 0, 0, 1, 0)
	j0 := b.u8("VEC4", false, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0)
	w0 := b.f32("VEC4", .3, .2, .2, .1, 1, 0, 0, 0, 1, 0, 0, 0)
	j1 := b.u8("VEC4", false, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	w1 := b.f32("VEC4", .2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	times := b.f32("SCALAR", 0, 1)
	var nodes, samplers, channels []any
	for k := 0; k < 5; k++ {
		name := []string{"root", "b", "c", "d", "e"}[k]
		nodes = append(nodes, map[string]any{"name": name})
		samplers = append(samplers, map[string]any{"input": times, "output": b.f32("VEC3", 0, 0, 0, float32(k+1), 0, 0)})
		channels = append(channels, map[string]any{"sampler": k, "target": map[string]any{"node": k, "path": "translation"}})
	}
	nodes = append(nodes, map[string]any{"mesh": 0, "skin": 0})
	return b.doc(t, "", map[string]any{
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{
			"POSITION": pos, "JOINTS_0": j0, "WEIGHTS_0": w0, "JOINTS_1": j1, "WEIGHTS_1": w1}}}}},
		"skins":      []any{map[string]any{"joints": []int{0, 1, 2, 3, 4}}},
		"nodes":      nodes,
		"scenes":     []any{map[string]any{"nodes": []int{0, 1, 2, 3, 4, 5}}},
		"animations": []any{map[string]any{"samplers": samplers, "channels": channels}},
	})
}
