package forcefield

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/spantree"
)

// connectPieces joins the pieces of gr (one per separate part of the
// model, §3: a model "may contain single or multiple individual parts")
// into one graph: pieces are linked through their nearest pair of
// joints, cheapest first, as a minimum spanning tree over the pieces. It
// returns the number of pieces there were.
func connectPieces(gr *graph) int {
	n := len(gr.joints)
	uf := newUnionFind(n)
	for _, e := range gr.edges {
		uf.union(e[0], e[1])
	}
	piece := make([]int, n)
	roots := map[int]int{}
	for j := range piece {
		r := uf.find(j)
		if _, ok := roots[r]; !ok {
			roots[r] = len(roots)
		}
		piece[j] = roots[r]
	}
	np := len(roots)
	if np <= 1 {
		return np
	}
	// Nearest joint pair per pair of pieces.
	type pair struct {
		a, b int
		d    float64
	}
	best := make(map[[2]int]pair)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			pa, pb := piece[a], piece[b]
			if pa == pb {
				continue
			}
			key := [2]int{min(pa, pb), max(pa, pb)}
			d := gr.joints[a].Dist(gr.joints[b])
			if p, ok := best[key]; !ok || d < p.d {
				best[key] = pair{a, b, d}
			}
		}
	}
	var edges []spantree.Edge
	for pa := 0; pa < np; pa++ {
		for pb := pa + 1; pb < np; pb++ {
			if p, ok := best[[2]int{pa, pb}]; ok {
				edges = append(edges, spantree.Edge{A: pa, B: pb, W: p.d})
			}
		}
	}
	for _, e := range spantree.Minimum(np, edges) {
		p := best[[2]int{e.A, e.B}]
		gr.edges = append(gr.edges, [2]int{p.a, p.b})
		gr.paths = append(gr.paths, polyline{})
	}
	return np
}

// nearest returns the joint nearest to p.
func nearest(joints []linalg.Vec3, p linalg.Vec3) int {
	best := 0
	for j, q := range joints {
		if q.Dist(p) < joints[best].Dist(p) {
			best = j
		}
	}
	return best
}
