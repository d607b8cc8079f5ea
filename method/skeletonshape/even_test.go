package skeletonshape

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

// TestEvenRuns: a chain from tip to tip along a tube 12 long, its three
// inner joints unevenly spaced and half a voxel off the axis, as the
// force field leaves them in a tube of one girth. In a round tube of
// radius 1 EvenRuns spaces them evenly between the tips and centres them
// and the tips on the axis (before it, they stayed where given: 2.7,
// 4.8 and 6.8 along a tube from 0 to 9.5 put RiggedSimple's joints 2.5%
// and 7.5% of its diagonal from the true ones). A tapering tube (a limb
// whose girth changes along it) and a chain with one inner joint keep
// their joints where they are.
func TestEvenRuns(t *testing.T) {
	const top = 12.0
	tube := func(r func(y float64) float64) *mesh.Mesh {
		return lathe(top, func(y float64) float64 {
			return max(ball(y, r(1), r(1)), ball(y, top-r(top-1), r(top-1)), func() float64 {
				if y >= r(1) && y <= top-r(top-1) {
					return r(y)
				}
				return 0
			}())
		})
	}
	chain := func(ps ...linalg.Vec3) *static.Skeleton {
		s := &static.Skeleton{Joints: ps}
		for j := 1; j < len(ps); j++ {
			s.Edges = append(s.Edges, [2]int{j - 1, j})
		}
		s.Root = len(ps) / 2
		return s
	}
	given := []linalg.Vec3{{0.1, 0.3, 0.05}, {-0.1, 3.4, 0.05}, {0.1, 6.3, -0.05}, {-0.1, 8.6, 0.05}, {0.1, 11.7, -0.05}}
	for _, c := range []struct {
		name  string
		r     func(y float64) float64
		s     *static.Skeleton
		moves bool
	}{
		{"uniform", func(float64) float64 { return 1 }, chain(given...), true},
		{"taper", func(y float64) float64 { return 1.2 - 0.06*y }, chain(given...), false},
		{"one inner joint", func(float64) float64 { return 1 }, chain(given[0], given[2], given[4]), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := tube(c.r)
			tree := bvh.New(m.Verts, m.Tris, nil)
			before := append([]linalg.Vec3(nil), c.s.Joints...)
			n := EvenRuns(c.s, thickness(tree, c.s.Joints), tree, nil, mesh.Diagonal(m.Verts))
			if !c.moves {
				if n != 0 {
					t.Errorf("%d joints moved, want none", n)
				}
				for j, p := range c.s.Joints {
					if p != before[j] {
						t.Errorf("joint %d moved from %v to %v", j, before[j], p)
					}
				}
				return
			}
			if n != 3 {
				t.Errorf("%d joints moved, want the 3 inner ones", n)
			}
			js := c.s.Joints
			step := (js[4][1] - js[0][1]) / 4
			for j, p := range js {
				if off := math.Hypot(p[0], p[2]); off > 0.02 {
					t.Errorf("joint %d at %v, %.3f off the axis, want at most 0.02", j, p, off)
				}
				if want := js[0][1] + float64(j)*step; math.Abs(p[1]-want) > 0.05 {
					t.Errorf("joint %d at height %.3f, want %.3f (evenly spaced between the tips)", j, p[1], want)
				}
			}
			if err := c.s.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}
