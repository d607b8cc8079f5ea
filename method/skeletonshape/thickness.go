package skeletonshape

import (
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
)

// thickness returns each joint's distance to the surface: the shortest
// hit of 26 rays (the cube's faces, edges and corners), which is within
// a few percent of the true distance for a joint inside a tube. A ray
// that hits nothing (a joint outside an open mesh) does not count; a
// joint no ray hits gets +Inf.
func thickness(tree *bvh.Tree, joints []linalg.Vec3) []float64 {
	var dirs []linalg.Vec3
	for x := -1; x <= 1; x++ {
		for y := -1; y <= 1; y++ {
			for z := -1; z <= 1; z++ {
				if x != 0 || y != 0 || z != 0 {
					dirs = append(dirs, linalg.Vec3{float64(x), float64(y), float64(z)}.Unit())
				}
			}
		}
	}
	out := make([]float64, len(joints))
	for j, p := range joints {
		best := math.Inf(1)
		for _, d := range dirs {
			r := bvh.NewRay(p, d)
			best = min(best, tree.Closest(&r))
		}
		out[j] = best
	}
	return out
}
