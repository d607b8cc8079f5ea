// Package bvh indexes a triangle mesh for ray and line queries: a
// bounding-volume hierarchy split by the surface-area heuristic, so a ray
// costs O(log n) triangle tests instead of n. The force-field skeleton
// casts its rays through it, and bone heat asks it whether a bone is
// visible from a vertex. (An octree, as Liu et al. use, needs a level
// parameter and stores a triangle in every cell it touches.)
package bvh

import "github.com/meshrig/meshrig/linalg"

// Tree is a bounding-volume hierarchy over a mesh's triangles.
type Tree struct {
	nodes  []node
	tris   []tri      // in leaf order
	corner [][3]int32 // their vertices, for Refit
}

// node is a box; a leaf (count > 0) owns tris[first:first+count], an
// inner node (count == 0) has its left child right after it and its
// right child at first.
type node struct {
	lo, hi       linalg.Vec3
	first, count int32
}

// tri is a triangle ready for the Möller–Trumbore test: corner a and
// edges e1 = b−a, e2 = c−a; part is the mesh component it belongs to.
type tri struct {
	a, e1, e2 linalg.Vec3
	part      int32
}

func partOf(part []int32, t int32) int32 {
	if part == nil {
		return 0
	}
	return part[t]
}

const (
	leafSize = 4
	sahBins  = 12
)

// New indexes the triangles of pos; part[t] is triangle t's mesh
// component, reported with line crossings (nil: all 0).
func New(pos []linalg.Vec3, tris [][3]int, part []int32) *Tree {
	n := len(tris)
	b := &Tree{tris: make([]tri, 0, n), corner: make([][3]int32, 0, n), nodes: make([]node, 0, 2*n/leafSize+1)}
	if n == 0 {
		return b
	}
	order := make([]int32, n)
	cent := make([]linalg.Vec3, n)
	lo := make([]linalg.Vec3, n)
	hi := make([]linalg.Vec3, n)
	for t, f := range tris {
		order[t] = int32(t)
		p, q, r := pos[f[0]], pos[f[1]], pos[f[2]]
		lo[t] = p.Min(q).Min(r)
		hi[t] = p.Max(q).Max(r)
		cent[t] = lo[t].Add(hi[t]).Scale(0.5)
	}
	bld := builder{b: b, cent: cent, lo: lo, hi: hi}
	bld.build(order)
	for _, t := range order {
		f := tris[t]
		a := pos[f[0]]
		b.tris = append(b.tris, tri{a: a, e1: pos[f[1]].Sub(a), e2: pos[f[2]].Sub(a), part: partOf(part, t)})
		b.corner = append(b.corner, [3]int32{int32(f[0]), int32(f[1]), int32(f[2])})
	}
	return b
}

// Refit returns the tree over the same triangles with their vertices at
// pos (a deformed pose of the mesh New indexed): the same hierarchy, every
// box fitted to its triangles' new corners. It skips New's sort; queries
// stay exact and slow down only where the motion makes boxes overlap.
func (b *Tree) Refit(pos []linalg.Vec3) *Tree {
	out := &Tree{nodes: make([]node, len(b.nodes)), tris: make([]tri, len(b.tris)), corner: b.corner}
	copy(out.nodes, b.nodes)
	for k, c := range b.corner {
		a := pos[c[0]]
		out.tris[k] = tri{a: a, e1: pos[c[1]].Sub(a), e2: pos[c[2]].Sub(a), part: b.tris[k].part}
	}
	// Children follow their parent in nodes: fit from the back.
	for n := len(out.nodes) - 1; n >= 0; n-- {
		nd := &out.nodes[n]
		if nd.count == 0 {
			l, r := &out.nodes[n+1], &out.nodes[nd.first]
			nd.lo, nd.hi = l.lo.Min(r.lo), l.hi.Max(r.hi)
			continue
		}
		nd.lo, nd.hi = pos[b.corner[nd.first][0]], pos[b.corner[nd.first][0]]
		for k := nd.first; k < nd.first+nd.count; k++ {
			for _, v := range b.corner[k] {
				nd.lo, nd.hi = nd.lo.Min(pos[v]), nd.hi.Max(pos[v])
			}
		}
	}
	return out
}

type builder struct {
	b            *Tree
	cent, lo, hi []linalg.Vec3
	start        int32 // triangles placed so far, in order
}

// build appends the subtree over idx (a window of the final order) and
// returns its node index. Splits minimize the surface-area heuristic
// over binned centroids; a flat or small set becomes a leaf.
func (bl *builder) build(idx []int32) int32 {
	at := int32(len(bl.b.nodes))
	lo, hi := bl.lo[idx[0]], bl.hi[idx[0]]
	clo, chi := bl.cent[idx[0]], bl.cent[idx[0]]
	for _, t := range idx[1:] {
		lo, hi = lo.Min(bl.lo[t]), hi.Max(bl.hi[t])
		clo, chi = clo.Min(bl.cent[t]), chi.Max(bl.cent[t])
	}
	bl.b.nodes = append(bl.b.nodes, node{lo: lo, hi: hi})
	axis := 0
	for a := 1; a < 3; a++ {
		if chi[a]-clo[a] > chi[axis]-clo[axis] {
			axis = a
		}
	}
	split := -1
	if len(idx) > leafSize && chi[axis] > clo[axis] {
		split = bl.sah(idx, axis, clo[axis], chi[axis], area(lo, hi))
	}
	if split < 0 {
		bl.b.nodes[at].first = bl.start
		bl.b.nodes[at].count = int32(len(idx))
		bl.start += int32(len(idx))
		return at
	}
	bl.build(idx[:split])
	right := bl.build(idx[split:])
	bl.b.nodes[at].first = right
	return at
}

// sah partitions idx along axis at the cheapest bin boundary and returns
// the split position, or -1 when a leaf is cheaper.
func (bl *builder) sah(idx []int32, axis int, c0, c1 float64, parent float64) int {
	var cnt [sahBins]int
	var blo, bhi [sahBins]linalg.Vec3
	scale := sahBins / (c1 - c0)
	bin := func(t int32) int {
		return min(int((bl.cent[t][axis]-c0)*scale), sahBins-1)
	}
	for _, t := range idx {
		k := bin(t)
		if cnt[k] == 0 {
			blo[k], bhi[k] = bl.lo[t], bl.hi[t]
		} else {
			blo[k], bhi[k] = blo[k].Min(bl.lo[t]), bhi[k].Max(bl.hi[t])
		}
		cnt[k]++
	}
	// Sweep from the right to get each suffix's area, then from the left.
	var rightArea [sahBins]float64
	var rightCnt [sahBins]int
	var lo, hi linalg.Vec3
	n := 0
	add := func(k int) { // bin k joins the box lo–hi of n triangles
		if cnt[k] == 0 {
			return
		}
		if n == 0 {
			lo, hi = blo[k], bhi[k]
		} else {
			lo, hi = lo.Min(blo[k]), hi.Max(bhi[k])
		}
		n += cnt[k]
	}
	for k := sahBins - 1; k > 0; k-- {
		add(k)
		rightCnt[k], rightArea[k] = n, area(lo, hi)
	}
	best, bestCost := -1, float64(len(idx))*parent // cost of a leaf
	n = 0
	for k := 0; k < sahBins-1; k++ {
		add(k)
		if n == 0 || rightCnt[k+1] == 0 {
			continue
		}
		// Traversal costs about one triangle test.
		cost := parent + float64(n)*area(lo, hi) + float64(rightCnt[k+1])*rightArea[k+1]
		if cost < bestCost {
			best, bestCost = k, cost
		}
	}
	if best < 0 {
		if len(idx) <= 2*leafSize {
			return -1
		}
		best = sahBins/2 - 1 // a large cluster: split anyway
	}
	// A stable partition keeps the build deterministic.
	right := make([]int32, 0, len(idx))
	split := 0
	for _, t := range idx {
		if bin(t) <= best {
			idx[split] = t
			split++
		} else {
			right = append(right, t)
		}
	}
	copy(idx[split:], right)
	if split == 0 || split == len(idx) {
		return -1
	}
	return split
}

func area(lo, hi linalg.Vec3) float64 {
	d := hi.Sub(lo)
	return d[0]*d[1] + d[1]*d[2] + d[2]*d[0]
}
