package skinning

import (
	"context"
	"math"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// tubeModel returns the model of the three-bone test tube with its true
// weights and true skin transforms, and its hierarchy with the joints
// moved off by offset.
func tubeModel(t *testing.T, offset float64) (*Model, Hierarchy, *seq.Sequence) {
	r := testrig.Tube(t, 12, linalg.Vec3{})
	s := testrig.Play(t, r)
	m := &Model{N: s.N(), F: s.F(), Rest: s.Rest.Verts, Frames: s.Frames64(), Top: mesh.NewTopology(s.Rest), B: 3}
	m.WB = make([]int32, m.N*MaxK)
	m.WW = make([]float64, m.N*MaxK)
	for i, in := range r.Skin {
		for k := 0; k < MaxK; k++ {
			m.WB[i*MaxK+k], m.WW[i*MaxK+k] = int32(in.Joint[k]), in.Weight[k]
			if in.Weight[k] == 0 {
				m.WB[i*MaxK+k] = -1
			}
		}
	}
	for f := 0; f < m.F; f++ {
		m.M = append(m.M, r.Skeleton.SkinMatrices(r.Skeleton.Pose(&r.Clips[0], f, nil), nil)...)
	}
	h := Hierarchy{Order: []int32{0, 1, 2}, Parent: []int32{-1, 0, 1}}
	for _, j := range r.Skeleton.Joints {
		h.Head = append(h.Head, j.Head.Add(linalg.Vec3{0, offset, 0}))
	}
	h.Head[0] = r.Skeleton.Joints[0].Head
	h.Prior = append([]linalg.Vec3(nil), h.Head...)
	return m, h, s
}

func rmse(t *testing.T, m *Model, h Hierarchy, s *seq.Sequence) float64 {
	t.Helper()
	r := m.SkeletalRig(h, s)
	r.Mesh = s.Rest
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if !r.Skeletal() {
		t.Fatal("exported rig is not skeletal")
	}
	rep, err := metric.Compare(s, r)
	if err != nil {
		t.Fatal(err)
	}
	return rep.RMSEPercent
}

// TestExactSkeletonReproduces: with the true joints the constrained
// transforms are the truth, and the exported rig replays the input.
func TestExactSkeletonReproduces(t *testing.T) {
	m, h, s := tubeModel(t, 0)
	m.Constrain(h)
	if e := rmse(t, m, h, s); e > 1e-5 { // float32 frames: their rounding
		t.Fatalf("RMSE%% %.3g with the true skeleton", e)
	}
}

// TestFitSkeletonRecoversJoints starts from joints moved off the axis by
// 0.1 (the hinge axes are z and y, so a y offset of the z-hinge joint is
// observable) and checks the fit brings the error down and the joints back.
func TestFitSkeletonRecoversJoints(t *testing.T) {
	m, h, s := tubeModel(t, 0.1)
	m.Constrain(h)
	before := rmse(t, m, h, s)
	if err := m.FitSkeleton(context.Background(), &h, 5, nil, nil); err != nil {
		t.Fatal(err)
	}
	after := rmse(t, m, h, s)
	t.Logf("RMSE%% %.4f → %.4f; knee joint at %v", before, after, h.Head[1])
	if after > before/10 {
		t.Errorf("RMSE%% %.4f → %.4f: the fit did not recover", before, after)
	}
	if d := h.Head[1].Dist(linalg.Vec3{1, 0, 0}); d > 0.02 {
		t.Errorf("joint 1 at %v, %.3f from the truth", h.Head[1], d)
	}
}

// TestFitSkeletonMomentum fits the displaced joints of
// TestFitSkeletonRecoversJoints for a few rounds with and without
// momentum: extrapolating the joints' moves gets closer in as many rounds,
// and what it returns is a consistent rig (the heads its transforms were
// fitted with, checked by the exported rig's replay).
func TestFitSkeletonMomentum(t *testing.T) {
	var errs [2]float64
	var dist [2]float64
	for k, beta := range []float64{0, 1} {
		m, h, s := tubeModel(t, 0.1)
		m.Constrain(h)
		if err := m.FitSkeletonUntil(context.Background(), &h, 3, FitSweeps, 0, beta, nil, nil); err != nil {
			t.Fatal(err)
		}
		errs[k] = rmse(t, m, h, s)
		dist[k] = h.Head[1].Dist(linalg.Vec3{1, 0, 0})
		agrees(t, m, h, s)
	}
	t.Logf("after 3 rounds: RMSE%% %.5f without momentum, %.5f with; knee %.4f and %.4f from the truth", errs[0], errs[1], dist[0], dist[1])
	if errs[1] > errs[0] || dist[1] > dist[0] {
		t.Errorf("momentum did worse: RMSE%% %.5f against %.5f, knee %.4f against %.4f from the truth", errs[1], errs[0], dist[1], dist[0])
	}
}

// TestFitSkeletonMomentumOvershoot spoils the weights after the first
// extrapolated round, so the next round's error rises and the plain step
// comes back: what FitSkeletonUntil returns must still be one rig — the
// exported skeletal rig (joints at h.Head, rotations from m.M) replays
// exactly what the model's transforms give.
func TestFitSkeletonMomentumOvershoot(t *testing.T) {
	m, h, s := tubeModel(t, 0.1)
	m.Constrain(h)
	calls := 0
	spoil := func() {
		calls++
		if calls != 2 {
			return
		}
		for i := 0; i < m.N; i += 2 { // every other vertex on the root alone
			for k := 0; k < MaxK; k++ {
				m.WB[i*MaxK+k], m.WW[i*MaxK+k] = -1, 0
			}
			m.WB[i*MaxK], m.WW[i*MaxK] = 0, 1
		}
	}
	if err := m.FitSkeletonUntil(context.Background(), &h, 5, FitSweeps, 0, 1, spoil, nil); err != nil {
		t.Fatal(err)
	}
	agrees(t, m, h, s)
}

// agrees checks that the skeletal rig exported from m and h (joints at
// h.Head, rotations from m.M) replays exactly what m's transforms give.
func agrees(t *testing.T, m *Model, h Hierarchy, s *seq.Sequence) {
	t.Helper()
	r := m.SkeletalRig(h, s)
	r.Mesh = s.Rest
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	var worst float64
	for f := 0; f < m.F; f++ {
		got := r.Frame(nil, 0, f)
		for i := 0; i < m.N; i++ {
			worst = math.Max(worst, got[i].Dist(m.Reconstruct(i, f)))
		}
	}
	if worst > 1e-9 {
		t.Errorf("the exported rig differs from the model's transforms by %.3g: joints and transforms disagree", worst)
	}
}

func TestFitSkeletonCancels(t *testing.T) {
	m, h, _ := tubeModel(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := m.FitSkeleton(ctx, &h, 3, nil, nil); err == nil {
		t.Fatal("cancelled fit returned no error")
	}
}

func TestNormalizeSlots(t *testing.T) {
	wb := []int32{3, 4, 5, -1}
	ww := []float64{2, -1e-12, 2, 0}
	NormalizeSlots(wb, ww)
	if wb[1] != -1 || ww[0] != 0.5 || ww[2] != 0.5 || math.Abs(ww[0]+ww[2]-1) > 0 {
		t.Fatalf("%v %v", wb, ww)
	}
	_ = rig.MaxInfluences
}
