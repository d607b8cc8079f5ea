package forcefield

import (
	"math"
	"sort"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
)

// TestCylinderEven: closed cylinders of one girth, 10 to 16 radii long,
// along and across the voxel grid's axes. Along such a tube the force
// field is the same everywhere and its minima fall where the voxel
// centres do; skeletonshape.EvenRuns spaces the chain's joints evenly
// between its tips and centres them on the axis (within 0.05 radii;
// before it the spacing was off by 0.77 to 7.1 radii — the 16-long
// cylinder had joints at 0.25, 1.9, 14.1 and 15.8 — and joints stood up
// to 0.1 off the axis).
func TestCylinderEven(t *testing.T) {
	for _, c := range []struct {
		name string
		axis linalg.Vec3
		l    float64
	}{
		{"13 along x", linalg.Vec3{1, 0, 0}, 13}, {"10 along y", linalg.Vec3{0, 1, 0}, 10},
		{"16 along z", linalg.Vec3{0, 0, 1}, 16}, {"10 slanted", linalg.Vec3{1, 1, 0.3}.Unit(), 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			const r = 1.0
			a, b := linalg.Vec3{0.3, -0.2, 0.1}, linalg.Vec3{0.3, -0.2, 0.1}.Add(c.axis.Scale(c.l))
			m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return tube(a, b, r, 32, int(4*c.l)) })
			s := skeleton(t, m, Options{})
			var along []float64
			worst := 0.0
			for _, p := range s.Joints {
				v := p.Sub(a)
				x := v.Dot(c.axis)
				along = append(along, x)
				worst = max(worst, v.Sub(c.axis.Scale(x)).Norm())
			}
			sort.Float64s(along)
			step := (along[len(along)-1] - along[0]) / float64(len(along)-1)
			uneven := 0.0
			for k := 1; k < len(along); k++ {
				uneven = max(uneven, math.Abs(along[k]-along[k-1]-step))
			}
			t.Logf("%d joints at %.3f, off the axis at most %.3f, spacing off by at most %.3f", len(s.Joints), along, worst, uneven)
			if len(s.Joints) < 4 {
				t.Fatalf("%d joints, want a chain with at least two inside", len(s.Joints))
			}
			if worst > 0.05*r {
				t.Errorf("a joint %.3f off the axis, want at most %.2f", worst, 0.05*r)
			}
			if uneven > 0.05*r {
				t.Errorf("spacing %.3f off even, want at most %.2f", uneven, 0.05*r)
			}
		})
	}
}
