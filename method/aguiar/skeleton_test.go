package aguiar

import (
	"context"
	"math"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// TestRootHead: a patch that only turns about a fixed point has its root
// joint there (up to the pull toward its center), and a patch that only
// travels keeps its center.
func TestRootHead(t *testing.T) {
	pivot := linalg.Vec3{0.2, -0.1, 0.05}
	var rest []linalg.Vec3
	for i := 0; i < 50; i++ {
		a := float64(i)
		rest = append(rest, linalg.Vec3{0.3 * math.Cos(a), 0.3 * math.Sin(1.3*a), 0.3 * math.Cos(0.7*a)})
	}
	center := linalg.Vec3{}
	for _, p := range rest {
		center = center.Add(p)
	}
	center = center.Scale(1 / float64(len(rest)))
	vertex := make([]int32, len(rest))
	for _, tc := range []struct {
		name   string
		motion func(f int) linalg.Affine
		want   linalg.Vec3
		tol    float64
	}{
		{"turning", func(f int) linalg.Affine {
			q := linalg.QuatFromAxisAngle(linalg.Vec3{math.Sin(float64(f)), 1, math.Cos(2 * float64(f))}.Unit(), 0.5*math.Sin(float64(f)))
			r := q.Mat3()
			return linalg.Affine{M: r, T: pivot.Sub(r.MulVec(pivot))}
		}, pivot, 0.1 * pivot.Dist(center)},
		{"travelling", func(f int) linalg.Affine {
			return linalg.Affine{M: linalg.Identity3(), T: linalg.Vec3{0.1 * float64(f), 0, 0}}
		}, center, 1e-12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &skinning.Model{N: len(rest), F: 12, Rest: rest, B: 1}
			patch := make([]linalg.Affine, m.F)
			for f := range patch {
				patch[f] = tc.motion(f)
			}
			if got := rootHead(m, patch, 0, vertex, center); got.Dist(tc.want) > tc.tol {
				t.Errorf("root joint at %v, want %v (±%.3g)", got, tc.want, tc.tol)
			}
		})
	}
}

// TestAnchoredRoot holds the three-bone tube's first bone still (a prop
// fixed at x = 0): the rig roots there, at the fixed end, instead of at
// the center of gravity. The free tube, whose root travels and turns, is
// not anchored.
func TestAnchoredRoot(t *testing.T) {
	for _, tc := range []struct {
		name     string
		anchored bool
	}{{"anchored", true}, {"free", false}} {
		t.Run(tc.name, func(t *testing.T) {
			tube := testrig.Tube(t, 24, linalg.Vec3{})
			if tc.anchored {
				c := &tube.Clips[0]
				for f := 0; f < c.Frames; f++ {
					c.Rotation[f*3] = linalg.IdentityQuat
					c.Translation[f*3] = linalg.Vec3{}
				}
			}
			s := testrig.Play(t, tube)
			r, err := Rig(context.Background(), s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			head := r.Skeleton.Joints[0].Head
			if tc.anchored && head.Dist(linalg.Vec3{}) > 0.1 {
				t.Errorf("anchored tube's root at %v, want its fixed end (0, 0, 0)", head)
			}
			if !tc.anchored && head[0] < 0.5 {
				t.Errorf("free tube's root at %v, at the end", head)
			}
		})
	}
}
