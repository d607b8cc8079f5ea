package forcefield

import (
	"context"
	"math"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skeletonshape"
	"github.com/meshrig/meshrig/metric"
)

// TestCharacters: generated characters of every kind in bind pose, whose
// skeletons are known (biped 17 joints, quadruped 21, hand 16, snake 12),
// at two vertex counts: the joint count follows the limbs (between the
// true count and 1.7 times it, the hand twice it: its five digits meet
// the palm at forks and end in tips the truth has no joints for, where
// its one wrist joint has five children; measured 22–26, 30–32, 27–30,
// 14), the joints lie near the true ones (joint error% at most 3, the
// hand 5: measured 2.0–2.1, 2.5, 3.5–4.0, 1.6–2.0), no two joints
// share a place, no joint has more than three children, and the biped
// and quadruped are mirror-symmetric with the root on the plane.
func TestCharacters(t *testing.T) {
	if testing.Short() {
		t.Skip("eight force-field runs")
	}
	for _, c := range []struct {
		kind  character.Kind
		most  float64 // joints, per true joint
		bound float64
	}{{character.Biped, 1.7, 3}, {character.Quadruped, 1.7, 3}, {character.Hand, 2, 5}, {character.Snake, 1.7, 3}} {
		for _, nv := range []int{2000, 8000} {
			r, err := character.Generate(c.kind, character.Options{Vertices: nv, Frames: 1})
			if err != nil {
				t.Fatal(err)
			}
			s, err := Skeleton(context.Background(), r.Mesh, Options{})
			if err != nil {
				t.Fatal(err)
			}
			truth := metric.Heads(&r.Skeleton)
			d := mesh.Diagonal(r.Mesh.Verts)
			je := metric.JointError(s.Joints, truth, d)
			t.Logf("%s %d: %d joints (truth %d), joint error %.2f%%", c.kind, nv, len(s.Joints), len(truth), je)
			if n := float64(len(s.Joints)); n < float64(len(truth)) || n > c.most*float64(len(truth)) {
				t.Errorf("%s %d: %d joints, want %d to %.0f", c.kind, nv, len(s.Joints), len(truth), c.most*float64(len(truth)))
			}
			if je > c.bound {
				t.Errorf("%s %d: joint error %.2f%%, want at most %.0f", c.kind, nv, je, c.bound)
			}
			checkDistinct(t, s, d)
			parent, order := s.Tree()
			kids := make([]int, len(s.Joints))
			for _, j := range order[1:] {
				kids[parent[j]]++
			}
			for j, k := range kids {
				if k > 3 {
					t.Errorf("%s %d: joint %d has %d children", c.kind, nv, j, k)
				}
			}
			if c.kind == character.Biped || c.kind == character.Quadruped {
				pl, _ := skeletonshape.MirrorPlane(r.Mesh)
				if res := skeletonshape.MirrorResidual(s, pl, d); res > 0.5 {
					t.Errorf("%s %d: mirror residual %.3f%% of d", c.kind, nv, res)
				}
				if side := math.Abs(pl.Side(s.Joints[s.Root])); side > 1e-9*d {
					t.Errorf("%s %d: root %g off the plane", c.kind, nv, side)
				}
			}
		}
	}
}

// TestJointsOption: Options.Joints gives that many joints, fewer or more
// than the shape's own count, and the skeleton stays symmetric.
func TestJointsOption(t *testing.T) {
	r, err := character.Generate(character.Quadruped, character.Options{Vertices: 2000, Frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := mesh.Diagonal(r.Mesh.Verts)
	pl, _ := skeletonshape.MirrorPlane(r.Mesh)
	for _, n := range []int{18, 40} {
		s, err := Skeleton(context.Background(), r.Mesh, Options{Joints: n})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Joints) != n {
			t.Errorf("%d joints, asked for %d", len(s.Joints), n)
		}
		if res := skeletonshape.MirrorResidual(s, pl, d); res > 0.5 {
			t.Errorf("%d joints: mirror residual %.3f%% of d", n, res)
		}
	}
	if _, err := Skeleton(context.Background(), r.Mesh, Options{Joints: 1}); err == nil {
		t.Error("1 joint accepted")
	}
}
