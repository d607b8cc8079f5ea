package forcefield

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
)

// thickness returns, for each of the interior voxels cands, the local
// thickness: the radius of the largest inscribed ball (centre q, radius
// the recorded distance d_q) that contains it. On the medial axis that
// is the voxel's own distance; off it — where thinning passes beside a
// junction whose force is not minimal — it is the radius of the part
// the voxel sits in, which its own distance to the nearby wall
// understates.
func (f *field) thickness(cands []int32) []float64 {
	g := f.g
	var dmax float64
	for _, d := range f.dist {
		dmax = math.Max(dmax, d)
	}
	reach := int(math.Ceil(dmax / g.h))
	out := make([]float64, len(cands))
	par.For(len(cands), 8, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			i := cands[c]
			p := g.center(int(f.vox[i]))
			x0, y0, z0 := g.coords(int(f.vox[i]))
			best := f.dist[i]
			for z := max(0, z0-reach); z <= min(g.n[2]-1, z0+reach); z++ {
				for y := max(0, y0-reach); y <= min(g.n[1]-1, y0+reach); y++ {
					for x := max(0, x0-reach); x <= min(g.n[0]-1, x0+reach); x++ {
						j := f.at[g.index(x, y, z)]
						if j < 0 || f.dist[j] <= best {
							continue
						}
						if g.center(int(f.vox[j])).Dist(p) <= f.dist[j] {
							best = f.dist[j]
						}
					}
				}
			}
			out[c] = best
		}
	})
	return out
}
