package ledeng

import (
	"cmp"
	"slices"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
)

// SearchCoarse finds the skeleton on a coarser mesh: each coarsening pairs
// every vertex with its nearest unpaired neighbour (in vertex order) and
// keeps the pairs' mean positions, rest and posed, so a level halves the
// vertices and keeps the surface's connectivity. The search (§4–§6) and
// the exact skeletal fit run on it; the rig is carried back to every
// vertex and frame and fitted there once (rotations, joints, weights,
// rotations).

// maxCoarsen bounds the levels; minPerCluster is how many coarse vertices
// each initial cluster keeps at least: a level that would leave fewer is
// not made, so a small mesh is searched as it is.
const (
	maxCoarsen    = 3
	minPerCluster = 20
)

// coarsen returns the problem over q's vertex pairs and each vertex's
// pair.
func (q *problem) coarsen() (*problem, []int32) {
	of := make([]int32, q.N)
	for i := range of {
		of[i] = -1
	}
	n := int32(0)
	for i := 0; i < q.N; i++ {
		if of[i] >= 0 {
			continue
		}
		best, bd := -1, 0.0
		for _, k := range q.Top.Neighbors(i) {
			if d := q.Rest[i].Dist(q.Rest[k]); of[k] < 0 && (best < 0 || d < bd) {
				best, bd = k, d
			}
		}
		of[i] = n
		if best >= 0 {
			of[best] = n
		}
		n++
	}
	cn := int(n)
	inv := make([]float64, cn)
	for _, c := range of {
		inv[c]++
	}
	for c := range inv {
		inv[c] = 1 / inv[c]
	}
	rest := make([]linalg.Vec3, cn)
	for i, c := range of {
		rest[c] = rest[c].Add(q.Rest[i].Scale(inv[c]))
	}
	frames := make([]linalg.Vec3, q.F*cn)
	for f := 0; f < q.F; f++ {
		dst := frames[f*cn : (f+1)*cn]
		for i, c := range of {
			dst[c] = dst[c].Add(q.Pos(f, i).Scale(inv[c]))
		}
	}
	return &problem{&skinning.Model{N: cn, F: q.F, Rest: rest, Frames: frames, Top: coarseTopology(q.Top, of, cn)}}, of
}

// coarseTopology is top with its vertices merged by of: an edge between
// two pairs wherever one joined their vertices.
func coarseTopology(top *mesh.Topology, of []int32, cn int) *mesh.Topology {
	edges := make([][2]int, 0, len(top.Edges))
	for _, e := range top.Edges {
		if a, b := int(of[e[0]]), int(of[e[1]]); a != b {
			edges = append(edges, [2]int{min(a, b), max(a, b)})
		}
	}
	slices.SortFunc(edges, func(x, y [2]int) int { return cmp.Or(x[0]-y[0], x[1]-y[1]) })
	return mesh.EdgeTopology(cn, slices.Compact(edges))
}

// coarseFor coarsens q up to maxCoarsen times while every one of target
// initial clusters keeps minPerCluster coarse vertices, and returns the
// coarse problem (q itself when no level is made), each vertex's coarse
// vertex and the levels made.
func (q *problem) coarseFor(target int) (*problem, []int32, int) {
	c := q
	var of []int32
	levels := 0
	for levels < maxCoarsen && c.N/2 >= minPerCluster*target {
		next, up := c.coarsen()
		if of == nil {
			of = up
		} else {
			for i := range of {
				of[i] = up[of[i]]
			}
		}
		c = next
		levels++
	}
	return c, of, levels
}

// expandTo gives every vertex of p (q's vertices, any frames) its coarse
// vertex's bones and weights in c.
func (c *problem) expandTo(p *problem, of []int32) {
	const k = skinning.MaxK
	p.B = c.B
	p.WB = make([]int32, p.N*k)
	p.WW = make([]float64, p.N*k)
	for i, x := range of {
		copy(p.WB[i*k:(i+1)*k], c.WB[int(x)*k:(int(x)+1)*k])
		copy(p.WW[i*k:(i+1)*k], c.WW[int(x)*k:(int(x)+1)*k])
	}
}
