package metric

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// square is a unit square (d = √2) skinned rigidly to one root joint.
func square(t *testing.T, frames int) *rig.Rig {
	m, err := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, [][]int{{0, 1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	sk := rig.Skeleton{Joints: []rig.Joint{{Name: "root", Parent: rig.NoParent}}}
	skin := make(rig.Skin, 4)
	for i := range skin {
		skin[i].Weight[0] = 1
	}
	c := rig.NewClip(&sk, "c", 30, frames)
	return &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin, Clips: []rig.Clip{c}}
}

func TestCompareKnownAnswer(t *testing.T) {
	r := square(t, 2)
	s := seq.New(r.Mesh)
	// Frame 1 exact; frame 2 has vertex 3 off by 0.1 along z.
	_ = s.AddFrame(r.Mesh.Verts, "a")
	moved := append([]linalg.Vec3(nil), r.Mesh.Verts...)
	moved[2][2] += 0.1
	_ = s.AddFrame(moved, "b")
	rep, err := Compare(s, r)
	if err != nil {
		t.Fatal(err)
	}
	d := math.Sqrt2
	off := float64(float32(0.1)) // the offset as the frames hold it
	wantRMSE := 100 * math.Sqrt(off*off/8) / d
	if math.Abs(rep.RMSEPercent-wantRMSE) > 1e-12 {
		t.Errorf("RMSE%% = %v, want %v", rep.RMSEPercent, wantRMSE)
	}
	// One of 8 vertex-frames off by 0.1; the longest side is 1.
	if want := 100 * off / 8; math.Abs(rep.ACCUPercent-want) > 1e-12 {
		t.Errorf("ACCU%% = %v, want %v", rep.ACCUPercent, want)
	}
	if want := 100 * off / d; math.Abs(rep.MaxPercent-want) > 1e-12 {
		t.Errorf("Max%% = %v, want %v", rep.MaxPercent, want)
	}
	if rep.FrameRMSEPercent[0] != 0 || rep.FrameRMSEPercent[1] == 0 {
		t.Errorf("per-frame %v", rep.FrameRMSEPercent)
	}
	if rep.NormalRMS <= 0 || rep.Bones != 1 || rep.Frames != 2 || rep.Vertices != 4 {
		t.Errorf("report %+v", rep)
	}
}

func TestCompareMismatch(t *testing.T) {
	r := square(t, 3)
	s := seq.New(r.Mesh)
	_ = s.AddFrame(r.Mesh.Verts, "a")
	if _, err := Compare(s, r); err == nil {
		t.Fatal("3 rig frames vs 1 input frame accepted")
	}
}

func TestJointError(t *testing.T) {
	a := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}}
	b := []linalg.Vec3{{0, 0, 0}}
	// a→b: (0+1)/2 = 0.5; b→a: 0; mean 0.25, d = 1.
	if got := JointError(a, b, 1); math.Abs(got-25) > 1e-12 {
		t.Fatalf("joint error %v, want 25", got)
	}
}

func TestDeformingHeads(t *testing.T) {
	r := &rig.Rig{Skeleton: rig.Skeleton{Joints: []rig.Joint{
		{Name: "place", Parent: rig.NoParent},
		{Name: "hip", Parent: 0, Head: linalg.Vec3{0, 1, 0}},
		{Name: "knee", Parent: 1, Head: linalg.Vec3{0, 0.5, 0}},
	}}}
	// Slot 1 names joint 0 with weight 0: it must not count.
	r.Skin = rig.Skin{
		{Joint: [4]rig.JointID{1, 0}, Weight: [4]float64{1, 0}},
		{Joint: [4]rig.JointID{2, 1}, Weight: [4]float64{0.5, 0.5}},
	}
	got := DeformingHeads(r)
	if len(got) != 2 || got[0] != (linalg.Vec3{0, 1, 0}) || got[1] != (linalg.Vec3{0, 0.5, 0}) {
		t.Fatalf("deforming heads %v, want hip and knee", got)
	}
	r.Skin = nil
	if got := DeformingHeads(r); len(got) != 3 {
		t.Fatalf("without a skin %d heads, want all 3", len(got))
	}
}
