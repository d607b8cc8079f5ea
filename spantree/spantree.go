// Package spantree builds minimum and maximum spanning trees (forests) of
// small weighted graphs, as the rigging methods use to turn bone
// adjacency into a skeleton. Unlike a map-backed graph library it breaks
// ties by edge order, so the same input always gives the same tree.
package spantree

import (
	"math"
	"sort"
)

// Edge joins nodes A and B with weight W.
type Edge struct {
	A, B int
	W    float64
}

// Minimum returns the edges of a minimum spanning forest of the graph with
// n nodes (Kruskal), in the order they were taken. Edges with a NaN weight
// are ignored; ties go to the edge listed first.
func Minimum(n int, edges []Edge) []Edge {
	return kruskal(n, edges, func(a, b float64) bool { return a < b })
}

// Maximum returns the edges of a maximum spanning forest.
func Maximum(n int, edges []Edge) []Edge {
	return kruskal(n, edges, func(a, b float64) bool { return a > b })
}

func kruskal(n int, edges []Edge, better func(a, b float64) bool) []Edge {
	idx := make([]int, 0, len(edges))
	for k, e := range edges {
		if !math.IsNaN(e.W) && e.A != e.B && e.A >= 0 && e.B >= 0 && e.A < n && e.B < n {
			idx = append(idx, k)
		}
	}
	sort.SliceStable(idx, func(i, j int) bool { return better(edges[idx[i]].W, edges[idx[j]].W) })
	sets := NewSets(n)
	var out []Edge
	for _, k := range idx {
		e := edges[k]
		if !sets.Union(e.A, e.B) {
			continue
		}
		out = append(out, e)
		if len(out) == n-1 {
			break
		}
	}
	return out
}

// Root orients a forest's edges away from root: it returns each node's
// parent (-1 for root and for nodes not connected to it) and the nodes
// in breadth-first order from root.
func Root(n int, tree []Edge, root int) (parent []int, order []int) {
	adj := make([][]int, n)
	for _, e := range tree {
		adj[e.A] = append(adj[e.A], e.B)
		adj[e.B] = append(adj[e.B], e.A)
	}
	parent = make([]int, n)
	for i := range parent {
		parent[i] = -2
	}
	parent[root] = -1
	order = []int{root}
	for q := 0; q < len(order); q++ {
		for _, c := range adj[order[q]] {
			if parent[c] == -2 {
				parent[c] = order[q]
				order = append(order, c)
			}
		}
	}
	for i := range parent {
		if parent[i] == -2 {
			parent[i] = -1
		}
	}
	return parent, order
}

// Connect returns forest extended to a spanning tree of n nodes: its
// edges are kept and the components are joined by the cheapest links
// under dist (Kruskal over every node pair, the forest taken first). The
// rigging methods use it to attach separate shells by proximity.
func Connect(n int, forest []Edge, dist func(a, b int) float64) []Edge {
	if len(forest) >= n-1 {
		return forest
	}
	links := make([]Edge, 0, len(forest)+n*(n-1)/2)
	for _, e := range forest {
		links = append(links, Edge{A: e.A, B: e.B, W: math.Inf(-1)})
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			links = append(links, Edge{A: a, B: b, W: dist(a, b)})
		}
	}
	tree := Minimum(n, links)
	// Give the forest's edges back their own weights.
	w := make(map[[2]int]float64, len(forest))
	for _, e := range forest {
		w[[2]int{e.A, e.B}] = e.W
	}
	for k, e := range tree {
		if x, ok := w[[2]int{e.A, e.B}]; ok && math.IsInf(e.W, -1) {
			tree[k].W = x
		}
	}
	return tree
}
