package ledeng

import (
	"slices"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
)

// Options.Fast finds the skeleton on a coarser mesh: each coarsening pairs
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
// two pairs wherever one joined their vertices. Rings come sorted, edges
// in ring order.
func coarseTopology(top *mesh.Topology, of []int32, cn int) *mesh.Topology {
	ring := make([][]int, cn)
	for i := range of {
		a := int(of[i])
		for _, k := range top.Neighbors(i) {
			if b := int(of[k]); b != a {
				ring[a] = append(ring[a], b)
			}
		}
	}
	t := &mesh.Topology{RingStart: make([]int, cn+1), Component: make([]int, cn)}
	for a := range ring {
		slices.Sort(ring[a])
		r := slices.Compact(ring[a])
		t.Ring = append(t.Ring, r...)
		t.RingStart[a+1] = len(t.Ring)
		for _, b := range r {
			if a < b {
				t.Edges = append(t.Edges, [2]int{a, b})
			}
		}
		t.Component[a] = -1
	}
	var stack []int
	for s := range t.Component {
		if t.Component[s] >= 0 {
			continue
		}
		t.Component[s] = t.NumComponents
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range t.Neighbors(x) {
				if t.Component[y] < 0 {
					t.Component[y] = t.NumComponents
					stack = append(stack, y)
				}
			}
		}
		t.NumComponents++
	}
	return t
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
