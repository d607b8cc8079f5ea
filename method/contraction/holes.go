package contraction

import "github.com/meshrig/meshrig/linalg"

// fillHoles closes every boundary loop of the triangles with a fan around
// a new vertex, the apex of a low cone over the loop (capApex), appended
// after pos. The
// contraction assumes a closed surface (Au et al. 2008 §3): on an open
// one the Laplacian pulls the boundary inward along the surface, so an
// open mesh (a bust, a scan) would shrink to a point instead of its
// skeleton. Fans are oriented like the triangles along the loop. It
// returns the new positions and triangles, the number of holes closed
// and the positions with each apex flattened to its loop's centroid
// (pos itself when there was no hole).
//
// The cone is only for the contraction: it rises beyond the hole, out of
// the mesh's bounding box when the hole is on its edge or skewed, so the
// surface joints are centred in closes the hole flat instead, and every
// joint stays within the convex hull of the mesh's vertices.
func fillHoles(pos []linalg.Vec3, tris [][3]int) ([]linalg.Vec3, [][3]int, int, []linalg.Vec3) {
	count := make(map[[2]int]int, 3*len(tris)/2)
	for _, f := range tris {
		for k := 0; k < 3; k++ {
			count[undirected(f[k], f[(k+1)%3])]++
		}
	}
	// The boundary half-edges a→b, as the one triangle on each boundary
	// edge runs them, kept in triangle order so loops come out the same
	// every run.
	next := make(map[int][]int)
	var starts []int
	for _, f := range tris {
		for k := 0; k < 3; k++ {
			a, b := f[k], f[(k+1)%3]
			if count[undirected(a, b)] == 1 {
				if len(next[a]) == 0 {
					starts = append(starts, a)
				}
				next[a] = append(next[a], b)
			}
		}
	}
	n, holes := len(pos), 0
	var centroids []linalg.Vec3
	for _, s := range starts {
		for len(next[s]) > 0 {
			loop := []int{s}
			for v := s; ; {
				out := next[v]
				if len(out) == 0 {
					break // an open chain (non-manifold boundary): close what was walked
				}
				w := out[0]
				next[v] = out[1:]
				if w == s {
					break
				}
				loop = append(loop, w)
				v = w
			}
			if len(loop) < 3 {
				continue
			}
			ci := len(pos)
			apex, c := capApex(pos, loop)
			pos = append(pos, apex)
			centroids = append(centroids, c)
			for k, a := range loop {
				b := loop[(k+1)%len(loop)]
				// The triangle on boundary edge a→b runs it forward; the
				// fan runs it backward, so orientations agree.
				tris = append(tris, [3]int{b, a, ci})
			}
			holes++
		}
	}
	if holes == 0 {
		return pos, tris, 0, pos
	}
	flat := append([]linalg.Vec3(nil), pos...)
	copy(flat[n:], centroids)
	return pos, tris, holes, flat
}

// undirected returns edge ab with its ends in increasing order.
func undirected(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// capApex returns the apex of the cone that closes a boundary loop, its
// centroid raised, away from the surface, by half the loop's mean
// radius, and the centroid. A flat cap would contract to a segment
// across the hole and split the end of the limb in two; a cone
// contracts to its apex.
func capApex(pos []linalg.Vec3, loop []int) (apex, centroid linalg.Vec3) {
	var c linalg.Vec3
	for _, v := range loop {
		c = c.Add(pos[v])
	}
	c = c.Scale(1 / float64(len(loop)))
	var area linalg.Vec3
	var r float64
	for k, v := range loop {
		w := loop[(k+1)%len(loop)]
		area = area.Add(pos[v].Sub(c).Cross(pos[w].Sub(c)))
		r += pos[v].Dist(c)
	}
	r /= float64(len(loop))
	if area.Norm() == 0 {
		return c, c
	}
	// The loop runs the way the surface's own triangles run its edges,
	// so its vector area points into the surface; the cap bulges the
	// other way.
	return c.Sub(area.Unit().Scale(r / 2)), c
}
