package schaefer

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/rigcheck"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/seq"
)

func TestTube(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 20, linalg.Vec3{}))
	r, err := Rig(context.Background(), s, Options{Bones: 3})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	t.Logf("tube: %d bones, RMSE%% %.4f", rep.Bones, rep.RMSEPercent)
	if rep.Bones != 3 || rep.RMSEPercent > 0.3 {
		t.Errorf("%d bones, RMSE%% %.3f", rep.Bones, rep.RMSEPercent)
	}
	for _, want := range []linalg.Vec3{{1, 0, 0}, {2, 0, 0}} {
		best := math.Inf(1)
		for _, j := range r.Skeleton.Joints {
			best = math.Min(best, j.Head.Dist(want))
		}
		if best > 0.1 {
			t.Errorf("no joint near the bend at %v (nearest %.3f)", want, best)
		}
	}
}

// TestClusteringStopsAtTarget: the greedy collapse reaches the count
// asked for, and every cluster is a connected patch of faces.
func TestClusteringStopsAtTarget(t *testing.T) {
	tube := testrig.Tube(t, 10, linalg.Vec3{})
	s := testrig.Play(t, tube)
	us := method.NewUnitSphere(s.Rest.Verts)
	m := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.ToFrames(nil, s.Frames)}
	top := mesh.NewTopology(s.Rest)
	for _, target := range []int{1, 3, 10} {
		label, k, err := clusterFaces(context.Background(), faceREFs(m, s.Rest.Tris), m.F, faceGraph(s.Rest, top), target, 0, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if k != target {
			t.Fatalf("%d clusters, want %d", k, target)
		}
		// Connected: flood each cluster over face adjacency.
		seen := make([]bool, len(label))
		for c := int32(0); c < int32(k); c++ {
			start := -1
			count := 0
			for f, l := range label {
				if l == c {
					count++
					if start < 0 {
						start = f
					}
				}
			}
			stack, reached := []int{start}, 0
			seen[start] = true
			for len(stack) > 0 {
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				reached++
				for _, o := range top.FaceAdj[f] {
					if o >= 0 && !seen[o] && label[o] == c {
						seen[o] = true
						stack = append(stack, o)
					}
				}
			}
			if reached != count {
				t.Fatalf("target %d: cluster %d is not connected (%d of %d faces reached)", target, c, reached, count)
			}
		}
	}
}

// TestTwoShells clusters a mesh of two separate tubes into one skeleton.
func TestTwoShells(t *testing.T) {
	a := testrig.Tube(t, 9, linalg.Vec3{})
	b := testrig.Tube(t, 9, linalg.Vec3{0, 1.5, 0})
	verts := append(append([]linalg.Vec3(nil), a.Mesh.Verts...), b.Mesh.Verts...)
	var polys [][]int
	off := len(a.Mesh.Verts)
	for k := 0; k < a.Mesh.NumPolys(); k++ {
		polys = append(polys, append([]int(nil), a.Mesh.Poly(k)...))
	}
	for k := 0; k < b.Mesh.NumPolys(); k++ {
		p := append([]int(nil), b.Mesh.Poly(k)...)
		for i := range p {
			p[i] += off
		}
		polys = append(polys, p)
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		t.Fatal(err)
	}
	s := seq.New(m)
	for f := 0; f < 9; f++ {
		_ = s.AddFrame(append(a.Frame(nil, 0, f), b.Frame(nil, 0, f)...), "f")
	}
	r, err := Rig(context.Background(), s, Options{Bones: 6})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	t.Logf("two shells: %d bones, RMSE%% %.3f", rep.Bones, rep.RMSEPercent)
	if rep.Bones < 4 {
		t.Errorf("%d bones for two three-bone tubes", rep.Bones)
	}
}

// TestUncoveredVertexGetsBones: a vertex whose weights were all cut off by
// the influence maps takes its neighbours' bones.
func TestUncoveredVertexGetsBones(t *testing.T) {
	tube := testrig.Tube(t, 6, linalg.Vec3{})
	s := testrig.Play(t, tube)
	us := method.NewUnitSphere(s.Rest.Verts)
	m := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.ToFrames(nil, s.Frames), Top: mesh.NewTopology(s.Rest), B: 2}
	m.WB = make([]int32, m.N*skinning.MaxK)
	m.WW = make([]float64, m.N*skinning.MaxK)
	for i := 0; i < m.N; i++ {
		for k := 0; k < skinning.MaxK; k++ {
			m.WB[i*skinning.MaxK+k] = -1
		}
		// Bone 0 on the first half, bone 1 on the second; vertex 500 on
		// neither (as if its weights had vanished).
		b := int32(0)
		if m.Rest[i][0] > 0 {
			b = 1
		}
		if i != 500 {
			m.WB[i*skinning.MaxK], m.WW[i*skinning.MaxK] = b, 1
		}
	}
	allowed := influenceMaps(m)
	if len(allowed[500]) == 0 {
		t.Fatal("vertex left without bones")
	}
	for i, a := range allowed {
		if len(a) == 0 {
			t.Fatalf("vertex %d left without bones", i)
		}
	}
}

func TestGeneratedCharactersJointError(t *testing.T) {
	for _, k := range []character.Kind{character.Biped, character.Quadruped, character.Hand, character.Snake} {
		t.Run(string(k), func(t *testing.T) {
			truth, err := character.Generate(k, character.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := character.Sequence(truth)
			r, err := Rig(context.Background(), s, Options{Bones: truth.Skeleton.Len()})
			if err != nil {
				t.Fatal(err)
			}
			rep := rigcheck.Check(t, s, r)
			je := metric.JointError(metric.Heads(&r.Skeleton), metric.DeformingHeads(truth), rep.Diagonal)
			t.Logf("%s: %d bones, joint error%% %.2f, RMSE%% %.3f", k, rep.Bones, je, rep.RMSEPercent)
			// The target. Measured: biped 2.07, quadruped 2.98, hand 3.07
			// (2.91 before the frames were float32: their rounding moves
			// one clustering step), snake 2.36.
			if je > 3.1 {
				t.Errorf("joint error%% %.2f > 3.1", je)
			}
		})
	}
}

// TestRealSequences: RMSE% under 1 on horse, cat and lion at the bone
// counts the default method finds (the target).
func TestRealSequences(t *testing.T) {
	root := shareddata.Path(t, "sequences")
	for _, tc := range []struct {
		name  string
		bones int
	}{{"horse-gallop", 25}, {"cat-poses", 25}, {"lion-poses", 27}} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := format.Load([]string{filepath.Join(root, tc.name)}, format.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Rig(context.Background(), in.Sequence, Options{Bones: tc.bones})
			if err != nil {
				t.Fatal(err)
			}
			rep := rigcheck.Check(t, in.Sequence, r)
			t.Logf("%s: %d bones, RMSE%% %.3f, normal RMS %.3f", tc.name, rep.Bones, rep.RMSEPercent, rep.NormalRMS)
			if rep.RMSEPercent >= 1 {
				t.Errorf("RMSE%% %.3f ≥ 1", rep.RMSEPercent)
			}
		})
	}
}

func BenchmarkFaceClusteringHorse(b *testing.B) {
	in, err := format.Load([]string{shareddata.Path(b, "sequences/horse-gallop")}, format.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	s := in.Sequence
	us := method.NewUnitSphere(s.Rest.Verts)
	m := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.ToFrames(nil, s.Frames)}
	m = m.Subset(m.SampleFrames(clusterFrames)) // the frames Rig clusters on
	top := mesh.NewTopology(s.Rest)
	graph := faceGraph(s.Rest, top)
	b.ResetTimer()
	for b.Loop() {
		refs := faceREFs(m, s.Rest.Tris)
		if _, _, err := clusterFaces(context.Background(), refs, m.F, graph, 27, 0, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRigHorse(b *testing.B) {
	in, err := format.Load([]string{shareddata.Path(b, "sequences/horse-gallop")}, format.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Rig(context.Background(), in.Sequence, Options{Bones: 27}); err != nil {
			b.Fatal(err)
		}
	}
}
