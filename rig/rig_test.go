package rig

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// bar is a strip of vertices along x from 0 to 2, skinned to a two-bone
// chain with joints at x=0 and x=1 and a smooth blend around x=1.
func bar(t *testing.T) *Rig {
	var verts []linalg.Vec3
	var polys [][]int
	for i := 0; i <= 20; i++ {
		x := float64(i) / 10
		verts = append(verts, linalg.Vec3{x, 0, 0}, linalg.Vec3{x, 0.1, 0})
		if i > 0 {
			a := 2 * (i - 1)
			polys = append(polys, []int{a, a + 2, a + 3, a + 1})
		}
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		t.Fatal(err)
	}
	sk := Skeleton{Joints: []Joint{
		{Name: "hip", Parent: NoParent, Head: linalg.Vec3{0, 0, 0}},
		{Name: "knee", Parent: 0, Head: linalg.Vec3{1, 0, 0}},
	}}
	skin := make(Skin, len(verts))
	for i, v := range verts {
		w := math.Min(1, math.Max(0, (v[0]-0.8)/0.4))
		skin[i] = Influence{Joint: [4]JointID{0, 1}, Weight: [4]float64{1 - w, w}}.Normalized()
	}
	c := NewClip(&sk, "bend", 30, 3)
	for f := 0; f < 3; f++ {
		c.Rotation[f*2+1] = linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, float64(f)*math.Pi/4)
		c.Translation[f*2] = linalg.Vec3{float64(f), 0, 0}
	}
	r := &Rig{Mesh: m, Skeleton: sk, Skin: skin, Clips: []Clip{c}}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFKAndLBS(t *testing.T) {
	r := bar(t)
	if !r.Skeletal() {
		t.Fatal("rigid clip reported non-skeletal")
	}
	// Frame 0 at rest: deformation is the identity.
	v0 := r.Frame(nil, 0, 0)
	for i := range v0 {
		if v0[i].Dist(r.Mesh.Verts[i]) > 1e-12 {
			t.Fatalf("rest frame moves vertex %d", i)
		}
	}
	// Frame 2: root moved by (2,0,0), knee bent 90°: the tip (2,0,0) goes to (3,1,0).
	v2 := r.Frame(nil, 0, 2)
	if got, want := v2[40], (linalg.Vec3{3, 1, 0}); got.Dist(want) > 1e-12 {
		t.Fatalf("tip at %v, want %v", got, want)
	}
	// Bones stay rigid: the knee stays at distance 1 from the hip.
	pose := r.Skeleton.Pose(&r.Clips[0], 2, nil)
	if d := pose[1].T.Dist(pose[0].T); math.Abs(d-1) > 1e-12 {
		t.Fatalf("bone length %v, want 1", d)
	}
}

func TestClipFromSkinMatricesRoundTrip(t *testing.T) {
	r := bar(t)
	c := &r.Clips[0]
	var mats []linalg.Affine
	for f := 0; f < c.Frames; f++ {
		mats = append(mats, r.Skeleton.SkinMatrices(r.Skeleton.Pose(c, f, nil), nil)...)
	}
	back := ClipFromSkinMatrices(&r.Skeleton, "x", 30, c.Frames, mats)
	r2 := &Rig{Mesh: r.Mesh, Skeleton: r.Skeleton, Skin: r.Skin, Clips: []Clip{back}}
	for f := 0; f < c.Frames; f++ {
		a, b := r.Frame(nil, 0, f), r2.Frame(nil, 0, f)
		for i := range a {
			if a[i].Dist(b[i]) > 1e-12 {
				t.Fatalf("frame %d vertex %d: %v vs %v", f, i, a[i], b[i])
			}
		}
	}
}

func TestNewFreeReproducesTransforms(t *testing.T) {
	r := bar(t)
	rng := rand.New(rand.NewPCG(1, 1))
	const frames, bones = 4, 2
	var tr []linalg.Affine
	for f := 0; f < frames; f++ {
		for b := 0; b < bones; b++ {
			q := linalg.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			tr = append(tr, linalg.Rigid(q, linalg.Vec3{rng.NormFloat64(), 0, 1}))
		}
	}
	fr, err := NewFree(r.Mesh, r.Skin, bones, "free", 30, frames, tr)
	if err != nil {
		t.Fatal(err)
	}
	for f := 0; f < frames; f++ {
		got := fr.Frame(nil, 0, f)
		want := Deform(nil, r.Mesh.Verts, r.Skin, tr[f*bones:(f+1)*bones])
		for i := range got {
			if got[i].Dist(want[i]) > 1e-12 {
				t.Fatalf("frame %d vertex %d: %v vs %v", f, i, got[i], want[i])
			}
		}
	}
	if fr.Skeletal() {
		t.Error("free rig with moving bones reported skeletal")
	}
}

func TestSkinValidateAndFromDense(t *testing.T) {
	w := []float64{
		0.1, 0.2, 0.3, 0.4, 0.5, // five joints: the smallest is dropped
		0, 0, 0, 0, 0, // no weight: all to joint 0
	}
	s := FromDense(w, 2, 5, 4)
	if err := s.Validate(5); err != nil {
		t.Fatal(err)
	}
	if s[0].Joint[0] != 4 || s[0].Weight[3] == 0 || math.Abs(s[0].Weight[0]-0.5/1.4) > 1e-12 {
		t.Errorf("vertex 0: %+v", s[0])
	}
	if s[1].Weight[0] != 1 || s[1].Joint[0] != 0 {
		t.Errorf("vertex 1: %+v", s[1])
	}
	bad := Skin{{Weight: [4]float64{0.5, 0.4}}}
	if err := bad.Validate(1); err == nil {
		t.Error("sum 0.9 accepted")
	}
	neg := Skin{{Joint: [4]JointID{0, 1}, Weight: [4]float64{1.5, -0.5}}}
	if err := neg.Validate(2); err == nil {
		t.Error("negative weight accepted")
	}
}

func TestReorder(t *testing.T) {
	js := []Joint{{Name: "c", Parent: 2}, {Name: "root", Parent: NoParent}, {Name: "b", Parent: 1}}
	sk, perm, err := Reorder(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := sk.Validate(); err != nil {
		t.Fatal(err)
	}
	if sk.Joints[perm[0]].Name != "c" || perm[1] != 0 {
		t.Fatalf("perm %v", perm)
	}
	cyc := []Joint{{Name: "r", Parent: NoParent}, {Name: "a", Parent: 2}, {Name: "b", Parent: 1}}
	if _, _, err := Reorder(cyc); err == nil {
		t.Fatal("cycle accepted")
	}
}

// TestClipValidate: FK and every writer take a clip's rotations as
// rotations and its rate as a time step, so Validate refuses what they
// would silently turn into something else.
func TestClipValidate(t *testing.T) {
	r := bar(t)
	half := linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, math.Pi/4)
	cases := []struct {
		name string
		edit func(c *Clip)
		ok   bool
	}{
		{"as built", func(c *Clip) {}, true},
		{"rounding off unit length", func(c *Clip) { c.Rotation[3] = linalg.Quat{W: half.W * (1 + 1e-9), Z: half.Z} }, true},
		{"not unit length", func(c *Clip) { c.Rotation[3] = linalg.Quat{W: 0.875, Z: 0.5} }, false},
		{"zero rotation", func(c *Clip) { c.Rotation[3] = linalg.Quat{} }, false},
		{"NaN rotation", func(c *Clip) { c.Rotation[3].X = math.NaN() }, false},
		{"infinite translation", func(c *Clip) { c.Translation[2][1] = math.Inf(-1) }, false},
		{"zero rate", func(c *Clip) { c.FPS = 0 }, false},
		{"negative rate", func(c *Clip) { c.FPS = -24 }, false},
		{"NaN rate", func(c *Clip) { c.FPS = math.NaN() }, false},
		{"infinite rate", func(c *Clip) { c.FPS = math.Inf(1) }, false},
		{"no frames", func(c *Clip) { c.Frames, c.Rotation, c.Translation = 0, nil, nil }, false},
		{"short", func(c *Clip) { c.Rotation = c.Rotation[:5] }, false},
		{"unnamed", func(c *Clip) { c.Name = "" }, true},
		{"name not UTF-8", func(c *Clip) { c.Name = "walk\xff" }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := r.Clips[0]
			c.Rotation = append([]linalg.Quat(nil), c.Rotation...)
			c.Translation = append([]linalg.Vec3(nil), c.Translation...)
			tc.edit(&c)
			if err := c.Validate(r.Skeleton.Len()); (err == nil) != tc.ok {
				t.Errorf("Validate = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

// TestSkeletonValidate: names must be present, unique and UTF-8, so every
// writer can keep them.
func TestSkeletonValidate(t *testing.T) {
	for _, tc := range []struct {
		names []string
		ok    bool
	}{
		{[]string{"hip", "knee"}, true},
		{[]string{"épaule", "\x00"}, true},
		{[]string{"hip", ""}, false},
		{[]string{"hip", "hip"}, false},
		{[]string{"hip", "knee\xff"}, false},
		{[]string{"\xfe", "\xff"}, false},
	} {
		sk := Skeleton{Joints: []Joint{{Name: tc.names[0], Parent: NoParent}, {Name: tc.names[1], Parent: 0, Head: linalg.Vec3{1, 0, 0}}}}
		if err := sk.Validate(); (err == nil) != tc.ok {
			t.Errorf("names %q: Validate = %v, want ok=%v", tc.names, err, tc.ok)
		}
	}
}

func TestRigValidateClipNames(t *testing.T) {
	r := bar(t)
	second := r.Clips[0]
	second.Name = "run"
	r.Clips = append(r.Clips, second)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	r.Clips[1].Name = r.Clips[0].Name
	if err := r.Validate(); err == nil {
		t.Error("two clips of one name accepted")
	}
}
