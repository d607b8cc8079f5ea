package libigl

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// fan is testdata/fan.tgf — bones 0: (1,0,0)→(2,0,0), 1: (0,0,0)→(1,0,0),
// 2: (0,0,0)→(-1,0,0), child listed before parent — with a strip mesh
// along x and weights (#verts×3, column-major) of at most three bones.
func fan(t *testing.T) (*mesh.Mesh, *TGF, *Matrix) {
	t.Helper()
	g, err := ReadTGF(bytes.NewReader(testdata(t, "fan.tgf")))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mesh.New([]linalg.Vec3{{-1, 0.1, 0}, {0.5, 0.1, 0}, {1.5, 0.1, 0}, {1.5, -0.1, 0}, {0.5, -0.1, 0}, {-1, -0.1, 0}},
		[][]int{{0, 1, 5}, {1, 4, 5}, {1, 2, 4}, {2, 3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	rows := [][3]float64{{0, 0, 1}, {0, 0.7, 0.3}, {0.6, 0.4, 0}, {1, 0, 0}, {0.25, 0.5, 0.25}, {0, 0, 1}}
	w := &Matrix{Rows: len(rows), Cols: 3, Data: make([]float64, 3*len(rows))}
	for i, r := range rows {
		for k, x := range r {
			w.Data[k*w.Rows+i] = x
		}
	}
	return m, g, w
}

func TestRigSkeleton(t *testing.T) {
	m, g, w := fan(t)
	r, boneJoint, err := Rig(m, g, w)
	if err != nil {
		t.Fatal(err)
	}
	sk := r.Skeleton
	// Two bones start at the origin, where no bone ends: a still root
	// joins them, and the child bone 0 comes after its parent bone 1.
	if sk.Len() != 4 || sk.Joints[0].Name != "root" || sk.Joints[0].Head != (linalg.Vec3{}) {
		t.Fatalf("skeleton %+v", sk.Joints)
	}
	for k, want := range []struct {
		head   linalg.Vec3
		parent string
	}{{linalg.Vec3{1, 0, 0}, "bone_1"}, {linalg.Vec3{}, "root"}, {linalg.Vec3{}, "root"}} {
		j := sk.Joints[boneJoint[k]]
		if j.Head != want.head || sk.Joints[j.Parent].Name != want.parent || !strings.HasSuffix(j.Name, string(rune('0'+k))) {
			t.Errorf("bone %d → joint %+v, want head %v under %s", k, j, want.head, want.parent)
		}
	}
	// Weights follow their bones to the joints.
	if in := r.Skin[4]; in.Joint[0] != boneJoint[1] || in.Weight[0] != 0.5 {
		t.Errorf("vertex 5: %+v", in)
	}
}

// TestRigReplay poses the fan by forward kinematics — bones 1 and 2 turn
// about the origin, bone 0 turns about (1,0,0) on top of bone 1, all moved
// by a root translation — and checks that meshrig's joint-rotation clip
// made from the bone transforms deforms the mesh exactly as libigl's LBS.
func TestRigReplay(t *testing.T) {
	m, g, w := fan(t)
	r, boneJoint, err := Rig(m, g, w)
	if err != nil {
		t.Fatal(err)
	}
	about := func(q linalg.Quat, c linalg.Vec3) linalg.Affine {
		return linalg.Rigid(q, c.Sub(q.Rotate(c)))
	}
	const frames = 3
	var mats []linalg.Affine
	var want [][]linalg.Vec3
	for f := 0; f < frames; f++ {
		a := 0.4 * float64(f+1)
		move := linalg.Translation(linalg.Vec3{0.1 * float64(f), 0, -0.2})
		b1 := move.Mul(about(linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, a), linalg.Vec3{}))
		b0 := b1.Mul(about(linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 0}, -a), linalg.Vec3{1, 0, 0}))
		b2 := move.Mul(about(linalg.QuatFromAxisAngle(linalg.Vec3{1, 0, 0}, 2*a), linalg.Vec3{}))
		tr := []linalg.Affine{b0, b1, b2}
		v, err := Deform(m.Verts, w, tr)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, v)
		sm, err := SkinMatrices(r, boneJoint, tr)
		if err != nil {
			t.Fatal(err)
		}
		mats = append(mats, sm...)
	}
	clip := rig.ClipFromSkinMatrices(&r.Skeleton, "pose", 30, frames, mats)
	if !clip.Rigid(&r.Skeleton, 1e-12) {
		t.Fatal("forward-kinematic transforms gave a clip that stretches bones")
	}
	clip.MakeRigid(&r.Skeleton)
	r.Clips = []rig.Clip{clip}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < frames; f++ {
		got := r.Frame(nil, 0, f)
		for i := range got {
			if d := got[i].Dist(want[f][i]); d > 1e-12 {
				t.Errorf("frame %d vertex %d: %v, libigl LBS %v", f, i, got[i], want[f][i])
			}
		}
	}
	if _, err := SkinMatrices(r, boneJoint, make([]linalg.Affine, 2)); err == nil {
		t.Error("2 transforms placed on 3 bones")
	}
}

func TestRigInfluenceCap(t *testing.T) {
	// Six bones fan out of the origin; a vertex on all six keeps the four
	// heaviest, renormalized.
	var tgf strings.Builder
	tgf.WriteString("1 0 0 0\n")
	for k := 0; k < 6; k++ {
		a := float64(k) * math.Pi / 3
		fmt.Fprintf(&tgf, "%d %g %g 0\n", k+2, math.Cos(a), math.Sin(a))
	}
	tgf.WriteString("#\n1 2\n1 3\n1 4\n1 5\n1 6\n1 7\n#\n")
	g, err := ReadTGF(strings.NewReader(tgf.String()))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, [][]int{{0, 1, 2}})
	w := &Matrix{Rows: 3, Cols: 6, Data: make([]float64, 18)}
	for k, x := range []float64{0.06, 0.3, 0.15, 0.25, 0.04, 0.2} {
		w.Data[k*3] = x   // vertex 1 on all six
		w.Data[k*3+1] = 0 // vertex 2 on bone 0 only
		w.Data[k*3+2] = 1.0 / 6
	}
	w.Data[1] = 1
	r, boneJoint, err := Rig(m, g, w)
	if err != nil {
		t.Fatal(err)
	}
	in := r.Skin[0]
	for k, bone := range []int{1, 3, 5, 2} {
		if in.Joint[k] != boneJoint[bone] || math.Abs(in.Weight[k]-w.Data[bone*3]/0.9) > 1e-15 {
			t.Errorf("slot %d: joint %d weight %v, want bone %d's %v", k, in.Joint[k], in.Weight[k], bone, w.Data[bone*3]/0.9)
		}
	}
	if in := r.Skin[1]; in.Joint[0] != boneJoint[0] || in.Weight[0] != 1 {
		t.Errorf("vertex 2: %+v", in)
	}
}

func TestRigErrors(t *testing.T) {
	m, g, _ := fan(t)
	if _, _, err := Rig(m, g, &Matrix{Rows: 6, Cols: 2, Data: make([]float64, 12)}); err == nil || !strings.Contains(err.Error(), "6 vertices × 3 bones") {
		t.Errorf("weights of 2 bones: %v", err)
	}
	cyc, err := ReadTGF(bytes.NewReader(testdata(t, "cycle.tgf")))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Rig(m, cyc, &Matrix{Rows: 6, Cols: 2, Data: make([]float64, 12)}); err == nil {
		t.Error("bones 1→2 and 2→1 made a skeleton")
	}
	if _, _, err := Rig(m, &TGF{Joints: g.Joints}, &Matrix{Rows: 6}); err == nil {
		t.Error("a skeleton without bones made a rig")
	}
	if _, _, err := Rig(m, &TGF{Joints: g.Joints[:1], Bones: [][2]int{{0, 3}}}, &Matrix{Rows: 6, Cols: 1, Data: make([]float64, 6)}); err == nil {
		t.Error("a bone to a missing joint made a rig")
	}
}
