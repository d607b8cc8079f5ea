package contraction

import (
	"context"
	"slices"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// simplifier turns the contracted mesh into a skeleton by half-edge
// collapses (the Collada paper §5.1, Au et al. 2008 §4). A collapse i → j
// merges node i into node j: the faces on edge ij vanish, i's other faces
// and edges pass to j, j's error quadric absorbs i's, and every graph
// vertex that i stood for now belongs to j. Until centre is called, j
// keeps its contracted position; after, it moves to the centre of the
// merged mesh region.
type simplifier struct {
	pos    []linalg.Vec3 // contracted positions, then region centres
	adj    [][]int32     // neighbours of each live node
	faces  [][3]int32
	dead   []bool    // per face
	vfaces [][]int32 // faces of each node (dead ones pruned lazily)
	q      []quadric
	owner  []int32 // graph vertex → the node it merged into (union–find)
	size   []int32 // graph vertices each node stands for
	alive  []bool
	stamp  []uint32 // bumped whenever a node's costs may have changed
	nodes  int      // live nodes
	nfaces int      // live faces

	shape, sampling float64
	h               minHeap[collapseEntry]
	// Once centred, each node sits at the area-weighted centre of the
	// surface it stands for (sum of area·position, and area), and a
	// collapse moves the kept node to the centre of the merged region.
	centred bool
	msum    []linalg.Vec3
	mass    []float64
	// The normal sums of each node's mesh region and whether it is a
	// plate (see flat): collapses out of a plate node are discounted.
	nsum  []linalg.Vec3
	ncov  []sym3
	plate []bool
}

// newSimplifier starts from the graph's faces and join edges at the
// contracted positions pos; each node's quadric sums the lines of its
// edges (Au et al. 2008 §4: "the initial error matrix for vertex i is the
// sum of the squared distances to its adjacent edges").
func newSimplifier(g *graph, pos []linalg.Vec3, opt Options) *simplifier {
	n := len(pos)
	s := &simplifier{
		pos:      pos,
		adj:      make([][]int32, n),
		faces:    make([][3]int32, len(g.tris)),
		dead:     make([]bool, len(g.tris)),
		vfaces:   make([][]int32, n),
		q:        make([]quadric, n),
		owner:    make([]int32, n),
		size:     make([]int32, n),
		alive:    make([]bool, n),
		stamp:    make([]uint32, n),
		nsum:     make([]linalg.Vec3, n),
		ncov:     make([]sym3, n),
		plate:    make([]bool, n),
		nodes:    n,
		nfaces:   len(g.tris),
		shape:    opt.ShapeWeight,
		sampling: opt.SamplingWeight,
	}
	for i := range s.owner {
		s.owner[i], s.size[i], s.alive[i] = int32(i), 1, true
	}
	link := func(a, b int32) {
		if !slices.Contains(s.adj[a], b) {
			s.adj[a] = append(s.adj[a], b)
			s.adj[b] = append(s.adj[b], a)
		}
	}
	for t, f := range g.tris {
		s.faces[t] = [3]int32{int32(f[0]), int32(f[1]), int32(f[2])}
		for k := 0; k < 3; k++ {
			s.vfaces[f[k]] = append(s.vfaces[f[k]], int32(t))
			link(int32(f[k]), int32(f[(k+1)%3]))
		}
	}
	for _, e := range g.joins {
		link(int32(e[0]), int32(e[1]))
	}
	for k, v := range g.at {
		s.nsum[v] = s.nsum[v].Add(g.nsum[k])
		s.ncov[v].add(&g.ncov[k])
	}
	for i := range s.plate {
		s.plate[i] = flat(s.nsum[i], &s.ncov[i])
	}
	par.For(n, 2048, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for _, j := range s.adj[i] {
				lq := lineQuadric(pos[i], pos[j])
				s.q[i].add(&lq)
			}
		}
	})
	return s
}

// find returns the node graph vertex i has merged into.
func (s *simplifier) find(i int32) int32 {
	for s.owner[i] != i {
		s.owner[i] = s.owner[s.owner[i]]
		i = s.owner[i]
	}
	return i
}

// liveFaces prunes dead faces from i's list and returns it.
func (s *simplifier) liveFaces(i int32) []int32 {
	s.vfaces[i] = slices.DeleteFunc(s.vfaces[i], func(f int32) bool { return s.dead[f] })
	return s.vfaces[i]
}

// onFace reports whether edge ij lies on a live face.
func (s *simplifier) onFace(i, j int32) bool {
	for _, f := range s.vfaces[i] {
		if !s.dead[f] {
			if fc := s.faces[f]; fc[0] == j || fc[1] == j || fc[2] == j {
				return true
			}
		}
	}
	return false
}

// closesLoop reports whether i and j have a common neighbour k with no
// live face ijk: collapsing ij would fold the cycle i–j–k into one edge,
// removing a loop the skeleton should keep.
func (s *simplifier) closesLoop(i, j int32) bool {
	for _, k := range s.adj[i] {
		if k == j || !slices.Contains(s.adj[j], k) {
			continue
		}
		shared := false
		for _, f := range s.vfaces[i] {
			if fc := s.faces[f]; !s.dead[f] && (fc[0] == j || fc[1] == j || fc[2] == j) &&
				(fc[0] == k || fc[1] == k || fc[2] == k) {
				shared = true
				break
			}
		}
		if !shared {
			return true
		}
	}
	return false
}

// cost returns the price of collapsing i → j (Au et al. 2008 §4):
// the shape cost F_a = F_i(v_j) + F_j(v_j), the squared distances of j's
// position from all lines i and j stand for, plus the sampling cost
// F_b = |v_i − v_j|·Σ_k |v_i − v_k| over i's neighbours, which keeps
// collapses from making long bones (the Collada paper's Eq. 3 and 4);
// a fraction of that when i stands for a plate (see flat).
func (s *simplifier) cost(i, j int32) float64 {
	pj := s.pos[j]
	if s.centred {
		pj = s.msum[i].Add(s.msum[j]).Scale(1 / (s.mass[i] + s.mass[j]))
	}
	fa := s.q[i].eval(pj) + s.q[j].eval(pj)
	var sum float64
	for _, k := range s.adj[i] {
		sum += s.pos[i].Dist(s.pos[k])
	}
	fb := s.pos[i].Dist(pj) * sum
	c := s.shape*fa + s.sampling*fb
	if s.plate[i] {
		c *= flatDiscount
	}
	return c
}

// collapse merges i into j.
func (s *simplifier) collapse(i, j int32) {
	for _, f := range s.liveFaces(i) {
		fc := &s.faces[f]
		if fc[0] == j || fc[1] == j || fc[2] == j {
			s.dead[f] = true
			s.nfaces--
			continue
		}
		for k := range fc {
			if fc[k] == i {
				fc[k] = j
			}
		}
		s.vfaces[j] = append(s.vfaces[j], f)
	}
	for _, k := range s.adj[i] {
		s.adj[k] = slices.DeleteFunc(s.adj[k], func(x int32) bool { return x == i })
		if k != j && !slices.Contains(s.adj[j], k) {
			s.adj[j] = append(s.adj[j], k)
			s.adj[k] = append(s.adj[k], j)
		}
	}
	s.q[j].add(&s.q[i])
	s.size[j] += s.size[i]
	s.nsum[j] = s.nsum[j].Add(s.nsum[i])
	s.ncov[j].add(&s.ncov[i])
	s.plate[j] = flat(s.nsum[j], &s.ncov[j])
	if s.centred {
		s.msum[j] = s.msum[j].Add(s.msum[i])
		s.mass[j] += s.mass[i]
		s.pos[j] = s.msum[j].Scale(1 / s.mass[j])
	}
	s.owner[i] = j
	s.alive[i] = false
	s.adj[i], s.vfaces[i] = nil, nil
	s.nodes--
	s.liveFaces(j)
	s.stamp[j]++
	for _, k := range s.adj[j] {
		s.stamp[k]++
	}
}

// phase says which collapses are allowed and how they are priced.
type phase int

const (
	// merging collapses edges shorter than the merge length, shortest
	// first, into the node standing for more of the mesh.
	merging phase = iota
	// surgery collapses edges on faces until no face is left (Au et al.
	// 2008 §4, connectivity surgery).
	surgery
	// thinning collapses edges of the 1D skeleton down to the joint count
	// (the Collada paper §5.1), never folding a loop.
	thinning
)

// entry prices collapse i → j for phase p; ok is false when p never
// allows it (an edge longer than the merge length, or, merging, the node
// standing for more of the mesh going first; an edge on no face during
// surgery).
func (s *simplifier) entry(p phase, i, j int32, merge float64) (e collapseEntry, ok bool) {
	e = collapseEntry{from: i, to: j, sf: s.stamp[i], st: s.stamp[j]}
	switch p {
	case merging:
		l := s.pos[i].Dist(s.pos[j])
		if l >= merge || s.size[i] > s.size[j] || s.size[i] == s.size[j] && i < j {
			return e, false
		}
		e.cost = l
	case surgery:
		if !s.onFace(i, j) {
			return e, false
		}
		e.cost = s.cost(i, j)
	default:
		e.cost = s.cost(i, j)
	}
	return e, true
}

// run performs the collapses of phase p, cheapest first, until none is
// allowed or the node count reaches floor. merge is the merge length.
// Stale heap entries are skipped by their stamps.
func (s *simplifier) run(ctx context.Context, p phase, floor int, merge float64, progress func(done int)) error {
	s.h.items, s.h.less = s.h.items[:0], collapseLess
	for i := range s.adj {
		for _, j := range s.adj[i] {
			if e, ok := s.entry(p, int32(i), j, merge); ok {
				s.h.items = append(s.h.items, e)
			}
		}
	}
	s.h.init()
	push := func(i, j int32) {
		if e, ok := s.entry(p, i, j, merge); ok {
			s.h.push(e)
		}
	}
	done := 0
	for s.h.Len() > 0 && s.nodes > floor {
		e := s.h.pop()
		i, j := e.from, e.to
		if !s.alive[i] || !s.alive[j] || e.sf != s.stamp[i] || e.st != s.stamp[j] {
			continue
		}
		if p == surgery && !s.onFace(i, j) || p == thinning && s.closesLoop(i, j) {
			continue
		}
		s.collapse(i, j)
		if p == surgery && s.nfaces == 0 {
			break
		}
		// Re-price every edge whose cost may have changed: j's, and those
		// of j's neighbours (their sampling sums saw i move to j).
		for _, k := range s.adj[j] {
			push(j, k)
			push(k, j)
			for _, m := range s.adj[k] {
				if m != j {
					push(k, m)
					push(m, k)
				}
			}
		}
		done++
		if done%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(done)
			}
		}
	}
	return nil
}

// collapseEntry is a priced collapse from → to, valid while both nodes'
// stamps are sf and st.
type collapseEntry struct {
	cost     float64
	from, to int32
	sf, st   uint32
}

// collapseLess orders entries by cost, ties by node indices, so the
// collapse order does not depend on anything but the input.
func collapseLess(a, b collapseEntry) bool {
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	return a.from < b.from || a.from == b.from && a.to < b.to
}

// centre moves every live node to the area-weighted centre of the
// surface samples whose graph vertices collapsed into it, and restarts
// the quadrics from the edges at those positions.
func (s *simplifier) centre(g *graph) {
	s.centred = true
	s.msum = make([]linalg.Vec3, len(s.pos))
	s.mass = make([]float64, len(s.pos))
	for k, v := range g.at {
		r := s.find(v)
		m := g.mass[k] + 1e-12
		s.msum[r] = s.msum[r].Add(g.sample[k].Scale(m))
		s.mass[r] += m
	}
	pos := make([]linalg.Vec3, len(s.pos))
	for i := range pos {
		if s.alive[i] {
			pos[i] = s.msum[i].Scale(1 / s.mass[i])
		}
	}
	s.pos = pos
	for i := range s.q {
		s.q[i] = quadric{}
		if !s.alive[i] {
			continue
		}
		for _, k := range s.adj[i] {
			lq := lineQuadric(pos[i], pos[k])
			s.q[i].add(&lq)
		}
	}
}
