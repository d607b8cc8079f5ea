package ledeng

import (
	"context"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/rigcheck"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

func TestTubeKnownAnswer(t *testing.T) {
	truth := testrig.Tube(t, 30, linalg.Vec3{})
	s := testrig.Play(t, truth)
	r, err := Rig(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	t.Logf("tube: %d bones, RMSE%% %.4f, Max%% %.3f", rep.Bones, rep.RMSEPercent, rep.MaxPercent)
	if rep.RMSEPercent > 0.1 {
		t.Errorf("RMSE%% %.3f > 0.1 on a three-bone tube", rep.RMSEPercent)
	}
	if rep.Bones < 3 || rep.Bones > 5 {
		t.Errorf("%d bones for a three-bone tube", rep.Bones)
	}
	// Both bends are found where they are, on the axis.
	for _, want := range []linalg.Vec3{{1, 0, 0}, {2, 0, 0}} {
		best := math.Inf(1)
		for _, j := range r.Skeleton.Joints {
			best = math.Min(best, j.Head.Dist(want))
		}
		if best > 0.05 {
			t.Errorf("no joint within 0.05 of the bend at %v (nearest %.3f)", want, best)
		}
	}
}

func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{}))
	run := func(procs int) *rig.Rig {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		r, err := Rig(context.Background(), s, Options{InitBones: 8, Iterations: 5})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(1), run(4)
	if a.Skeleton.Len() != b.Skeleton.Len() {
		t.Fatalf("%d vs %d joints", a.Skeleton.Len(), b.Skeleton.Len())
	}
	for j := range a.Skeleton.Joints {
		if a.Skeleton.Joints[j] != b.Skeleton.Joints[j] {
			t.Fatalf("joint %d differs: %+v vs %+v", j, a.Skeleton.Joints[j], b.Skeleton.Joints[j])
		}
	}
	for i := range a.Skin {
		if a.Skin[i] != b.Skin[i] {
			t.Fatalf("vertex %d weights differ", i)
		}
	}
	for k := range a.Clips[0].Rotation {
		if a.Clips[0].Rotation[k] != b.Clips[0].Rotation[k] {
			t.Fatalf("rotation %d differs", k)
		}
	}
}

func TestStaticInputGivesOneBone(t *testing.T) {
	truth := testrig.Tube(t, 5, linalg.Vec3{})
	s := seq.New(truth.Mesh)
	for f := 0; f < 5; f++ {
		_ = s.AddFrame(truth.Mesh.Verts, "same")
	}
	var notes []string
	r, err := Rig(context.Background(), s, Options{Notes: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	if rep.Bones != 1 || rep.RMSEPercent > 1e-5 { // float32 frames: their rounding
		t.Errorf("static input: %d bones, RMSE%% %v", rep.Bones, rep.RMSEPercent)
	}
	if len(notes) == 0 || !strings.Contains(notes[0], "one bone") {
		t.Errorf("no note for a static input: %v", notes)
	}
}

// TestTwoShells rigs a tube with a separate sleeve shell riding on its
// middle segment, as eyes ride on a head: one skeleton for both, every
// vertex weighted, the sleeve following its segment.
func TestTwoShells(t *testing.T) {
	body := testrig.Tube(t, 12, linalg.Vec3{})
	// The sleeve: a ring of quads of radius 0.35 around x in [1.3, 1.7].
	verts := append([]linalg.Vec3(nil), body.Mesh.Verts...)
	var polys [][]int
	for k := 0; k < body.Mesh.NumPolys(); k++ {
		polys = append(polys, append([]int(nil), body.Mesh.Poly(k)...))
	}
	off := len(verts)
	const around = 12
	for r := 0; r < 5; r++ {
		x := 1.3 + 0.1*float64(r)
		for a := 0; a < around; a++ {
			th := 2 * math.Pi * float64(a) / around
			verts = append(verts, linalg.Vec3{x, 0.35 * math.Cos(th), 0.35 * math.Sin(th)})
		}
	}
	for r := 0; r < 4; r++ {
		for a := 0; a < around; a++ {
			i0, i1 := off+r*around+a, off+r*around+(a+1)%around
			polys = append(polys, []int{i0, i1, i1 + around, i0 + around})
		}
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		t.Fatal(err)
	}
	skin := append(rig.Skin(nil), body.Skin...)
	for i := off; i < len(verts); i++ {
		skin = append(skin, rig.Influence{Joint: [4]rig.JointID{1}, Weight: [4]float64{1}})
	}
	both := &rig.Rig{Mesh: m, Skeleton: body.Skeleton, Skin: skin, Clips: body.Clips}
	if top := mesh.NewTopology(m); top.NumComponents != 2 {
		t.Fatalf("%d components, want 2", top.NumComponents)
	}
	s := testrig.Play(t, both)
	r, err := Rig(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	t.Logf("two shells: %d bones, RMSE%% %.4f", rep.Bones, rep.RMSEPercent)
	if rep.RMSEPercent > 0.2 {
		t.Errorf("RMSE%% %.3f on a tube with a sleeve", rep.RMSEPercent)
	}
}

func TestFreeForm(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 15, linalg.Vec3{}))
	r, err := Rig(context.Background(), s, Options{Free: true, InitBones: 8})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	rep, err := metric.Compare(s, r)
	if err != nil {
		t.Fatal(err)
	}
	if rep.RMSEPercent > 0.5 {
		t.Errorf("free form RMSE%% %.3f", rep.RMSEPercent)
	}
	if r.Skin[0].Joint[0] == 0 {
		t.Error("free form skins a vertex to the static root")
	}
}

func TestMaxBonesCap(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{}))
	r, err := Rig(context.Background(), s, Options{MaxBones: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	if rep.Bones > 2 {
		t.Errorf("%d bones with MaxBones 2", rep.Bones)
	}
}

func TestCancel(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Rig(ctx, s, Options{}); err == nil {
		t.Fatal("cancelled context not reported")
	}
}
