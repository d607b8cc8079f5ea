package skinweights

import (
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// visibility decides which bone heats which vertex: the nearest bone
// visible from it, the straight line from the vertex to the bone's
// nearest point crossing no other part of the surface — the ray test of
// Blender's automatic weights. Baran & Popović and de Aguiar et al. (§7)
// ask that the line lie inside the character's volume; it does when, in
// addition, it leaves the vertex inward, which a ray cannot check
// without trusting the faces' orientation, so (as in Blender) it is not
// checked.
type visibility struct {
	tree *bvh.Tree // on the reference pose; refitted to each pose
	comp []int     // each vertex's connected component (by triangles)
}

func newVisibility(rest []linalg.Vec3, tris [][3]int) *visibility {
	top := mesh.NewTopology(&mesh.Mesh{Verts: rest, Tris: tris})
	return &visibility{tree: bvh.New(rest, tris, nil), comp: top.Component}
}

// nearest returns, for every vertex at pos (a pose of the reference
// mesh), the index in segs of the nearest segment visible from it and
// its distance, or −1 where none is. A vertex in no triangle (mass 0) takes its nearest
// segment, and so does every vertex of a component none of whose
// vertices sees one (its bones all hidden behind other parts, or none
// inside it), so that no part of the system is left without heat.
func (v *visibility) nearest(pos []linalg.Vec3, mass []float64, segs []Segment) ([]int, []float64) {
	tree := v.tree.Refit(pos)
	out := make([]int, len(pos))
	d := make([]float64, len(pos))
	par.For(len(pos), 1024, func(lo, hi int) {
		dist := make([]float64, len(segs))
		for i := lo; i < hi; i++ {
			if mass[i] == 0 {
				out[i], d[i] = nearest(segs, pos[i])
				continue
			}
			out[i], d[i] = nearestVisible(tree, int32(i), segs, pos[i], dist)
		}
	})
	seen := make([]bool, len(pos))
	for i, k := range out {
		if k >= 0 && mass[i] > 0 {
			seen[v.comp[i]] = true
		}
	}
	for i, k := range out {
		if k < 0 && !seen[v.comp[i]] {
			out[i], d[i] = nearest(segs, pos[i])
		}
	}
	return out, d
}

// nearestVisible returns the segment nearest to mesh vertex i at p among
// those visible from it and its distance, or −1. dist is scratch of
// len(segs).
func nearestVisible(tree *bvh.Tree, i int32, segs []Segment, p linalg.Vec3, dist []float64) (int, float64) {
	for k, s := range segs {
		dist[k] = s.Dist(p)
	}
	for range segs {
		best := -1
		for k, d := range dist {
			if !math.IsInf(d, 1) && (best < 0 || d < dist[best]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		r := bvh.NewRay(p, segs[best].Closest(p).Sub(p))
		// The triangles around i do not count; a crossing within
		// visibleTol of the line's ends is a coincident copy of the
		// vertex (a seam) or the bone touching the surface.
		if !tree.BlockedFrom(&r, i, visibleTol, 1-visibleTol) {
			return best, dist[best]
		}
		dist[best] = math.Inf(1)
	}
	return -1, 0
}

// visibleTol is the share of a vertex-to-bone line at either end where a
// crossing does not hide the bone.
const visibleTol = 1e-6
