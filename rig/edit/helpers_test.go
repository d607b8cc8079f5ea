package edit

import (
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// tube is testrig's three-joint tube (a → b → c), off the origin, with a
// root that turns and travels.
func tube(t testing.TB) *rig.Rig {
	return testrig.Tube(t, 12, linalg.Vec3{0.5, -0.2, 0.1})
}

var bipedOnce struct {
	sync.Once
	r   *rig.Rig
	err error
}

// biped is a generated walking character (17 joints), shared read-only:
// tests that edit it must leave it unchanged, which they check.
func biped(t testing.TB) *rig.Rig {
	bipedOnce.Do(func() {
		bipedOnce.r, bipedOnce.err = character.Generate(character.Biped, character.Options{Vertices: 1500, Frames: 10})
	})
	if bipedOnce.err != nil {
		t.Fatal(bipedOnce.err)
	}
	return bipedOnce.r
}

// free is the tube as rig.NewFree's free form: a still root with three
// free bones, playing what the tube plays.
func free(t testing.TB) *rig.Rig {
	tb := tube(t)
	c := &tb.Clips[0]
	mats := make([]linalg.Affine, 0, c.Frames*3)
	for f := 0; f < c.Frames; f++ {
		mats = append(mats, tb.Skeleton.SkinMatrices(tb.Skeleton.Pose(c, f, nil), nil)...)
	}
	r, err := rig.NewFree(tb.Mesh, tb.Skin, 3, c.Name, c.FPS, c.Frames, mats)
	if err != nil {
		t.Fatal(err)
	}
	if d := playback(r, tb); d > 1e-12 {
		t.Fatalf("free form plays %g·d off the tube", d)
	}
	return r
}

// clone deep-copies r, mesh included, to compare an input with after an edit.
func clone(r *rig.Rig) *rig.Rig {
	m := *r.Mesh
	m.Verts = append([]linalg.Vec3(nil), r.Mesh.Verts...)
	m.Tris = append([][3]int(nil), r.Mesh.Tris...)
	out := &rig.Rig{Mesh: &m,
		Skeleton: rig.Skeleton{Joints: append([]rig.Joint(nil), r.Skeleton.Joints...)},
		Skin:     append(rig.Skin(nil), r.Skin...),
	}
	for _, c := range r.Clips {
		c.Rotation = append([]linalg.Quat(nil), c.Rotation...)
		c.Translation = append([]linalg.Vec3(nil), c.Translation...)
		if c.Scale != nil {
			c.Scale = append([]linalg.Vec3(nil), c.Scale...)
		}
		out.Clips = append(out.Clips, c)
	}
	return out
}

// playback returns the largest distance between a vertex as a and as b
// play it, over every clip and frame, in units of the rest diagonal.
func playback(a, b *rig.Rig) float64 {
	d := mesh.Diagonal(a.Mesh.Verts)
	worst := 0.0
	var va, vb []linalg.Vec3
	for c := range a.Clips {
		for f := 0; f < a.Clips[c].Frames; f++ {
			va = a.Frame(va, c, f)
			vb = b.Frame(vb, c, f)
			for i := range va {
				worst = max(worst, va[i].Dist(vb[i])/d)
			}
		}
	}
	return worst
}

// globalDiff is how far joint ja of a and jb of b are apart at frame f of
// clip c (affineDiff of their global transforms).
func globalDiff(a *rig.Rig, ja rig.JointID, b *rig.Rig, jb rig.JointID, c, f int) (rot, head float64) {
	return affineDiff(a.Skeleton.Pose(&a.Clips[c], f, nil)[ja], b.Skeleton.Pose(&b.Clips[c], f, nil)[jb], mesh.Diagonal(a.Mesh.Verts))
}

// affineDiff returns the largest entry difference of two rotation
// matrices and the distance of two translations over d.
func affineDiff(ga, gb linalg.Affine, d float64) (rot, head float64) {
	for i := 0; i < 3; i++ {
		for k := 0; k < 3; k++ {
			rot = max(rot, math.Abs(ga.M[i][k]-gb.M[i][k]))
		}
	}
	return rot, ga.T.Dist(gb.T) / d
}

// checkEdit checks what every edit keeps: the input unchanged, the result
// valid, sharing the mesh, ≤4 influences summing to 1, rigid and skeletal
// clips where the input's were (skeletal ones too, unless loose), names
// carried by the id map (except renamed), heads kept (except moved), and
// the map one-to-one.
func checkEdit(t *testing.T, in, before, out *rig.Rig, ids []rig.JointID, keepName, keepHead rig.JointID, loose bool) {
	t.Helper()
	if !reflect.DeepEqual(in, before) {
		t.Fatal("the edit changed its input")
	}
	if err := out.Validate(); err != nil {
		t.Fatalf("edited rig invalid: %v", err)
	}
	if out.Mesh != in.Mesh {
		t.Error("the edited rig does not share the input's mesh")
	}
	for i, infl := range out.Skin {
		sum, used := 0.0, 0
		for _, w := range infl.Weight {
			sum += w
			if w > 0 {
				used++
			}
		}
		if math.Abs(sum-1) > 1e-12 || used > rig.MaxInfluences {
			t.Fatalf("vertex %d: %d influences summing to %v", i, used, sum)
		}
	}
	tol := rigidTol(in)
	for c := range in.Clips {
		if in.Clips[c].Rigid(&in.Skeleton, tol) && !out.Clips[c].Rigid(&out.Skeleton, tol) {
			t.Errorf("clip %q was rigid and is not", in.Clips[c].Name)
		}
	}
	if in.Skeletal() && !out.Skeletal() && !loose {
		t.Error("the rig was skeletal and is not")
	}
	seen := map[rig.JointID]bool{}
	for k, id := range ids {
		if id == Removed {
			continue
		}
		if seen[id] || id < 0 || int(id) >= out.Skeleton.Len() {
			t.Fatalf("id map %v is not one-to-one into %d joints", ids, out.Skeleton.Len())
		}
		seen[id] = true
		if k >= in.Skeleton.Len() {
			continue // the new joint of split and add
		}
		ij, oj := in.Skeleton.Joints[k], out.Skeleton.Joints[id]
		if rig.JointID(k) != keepName && ij.Name != oj.Name {
			t.Errorf("joint %d (%s) is now named %s", k, ij.Name, oj.Name)
		}
		if rig.JointID(k) != keepHead && ij.Head != oj.Head {
			t.Errorf("joint %d (%s) moved from %v to %v", k, ij.Name, ij.Head, oj.Head)
		}
	}
}

// byName returns the id of the joint named name.
func byName(t testing.TB, r *rig.Rig, name string) rig.JointID {
	for k, jt := range r.Skeleton.Joints {
		if jt.Name == name {
			return rig.JointID(k)
		}
	}
	t.Fatalf("no joint %q", name)
	return 0
}

// subtree reports which joints are j or below it.
func subtree(r *rig.Rig, j rig.JointID) []bool {
	in := make([]bool, r.Skeleton.Len())
	for k, jt := range r.Skeleton.Joints {
		in[k] = rig.JointID(k) == j || (jt.Parent != rig.NoParent && in[jt.Parent])
	}
	return in
}

// placed is the tube under two still placement joints, ground → place →
// a → b → c, a carrying the root motion (as Fox.glb's hip under its
// ground joints): skeletal but not rigid.
func placed(t testing.TB) *rig.Rig {
	tb := tube(t)
	r := &rig.Rig{Mesh: tb.Mesh, Skeleton: rig.Skeleton{Joints: []rig.Joint{
		{Name: "ground", Parent: rig.NoParent, Head: linalg.Vec3{0, -1, 0}},
		{Name: "place", Parent: 0, Head: linalg.Vec3{0, -0.5, 0.2}},
	}}}
	for _, jt := range tb.Skeleton.Joints {
		jt.Parent += 2 // the root's NoParent becomes place
		r.Skeleton.Joints = append(r.Skeleton.Joints, jt)
	}
	for _, infl := range tb.Skin {
		for k := range infl.Joint {
			infl.Joint[k] += 2
		}
		r.Skin = append(r.Skin, infl)
	}
	c := tb.Clips[0]
	pc := rig.NewClip(&r.Skeleton, c.Name, c.FPS, c.Frames)
	for f := 0; f < c.Frames; f++ {
		for k := 0; k < 3; k++ {
			pc.Rotation[f*5+k+2] = c.Rotation[f*3+k]
			pc.Translation[f*5+k+2] = c.Translation[f*3+k]
		}
		pc.Translation[f*5+2] = c.Translation[f*3].Sub(r.Skeleton.Joints[1].Head)
	}
	r.Clips = []rig.Clip{pc}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if !r.Skeletal() || pc.Rigid(&r.Skeleton, 1e-9) {
		t.Fatal("placed tube: not skeletal, or rigid")
	}
	if d := playback(r, tb); d > 1e-12 {
		t.Fatalf("placed tube plays %g·d off the tube", d)
	}
	return r
}
