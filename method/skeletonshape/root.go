package skeletonshape

import (
	"container/heap"
	"math"

	"github.com/meshrig/meshrig/method/static"
)

// TorsoRoot returns the joint of s where the body's volume is centred
// along the skeleton: the weighted 1-median of the graph, the joint whose
// sum of shortest-path distances to every joint, each weighted by the
// volume it stands for (r² times half its bones' lengths, r its distance
// to the surface), is least. On a tree it is the joint no branch of which
// holds more than half the volume: a character's torso, not its limbs,
// and not its head unless the head outweighs the body and limbs together
// (the largest blob alone, the old rule, can be a big head). Tips are
// never chosen when another joint exists; when allowed is not nil only
// joints it marks are (the joints on a mirror plane).
func TorsoRoot(s *static.Skeleton, radius []float64, allowed []bool) int {
	n := len(s.Joints)
	adj := adjacency(n, s.Edges)
	w := make([]float64, n)
	for _, e := range s.Edges {
		l := s.Joints[e[0]].Dist(s.Joints[e[1]]) / 2
		for _, j := range e {
			r := radius[j]
			if math.IsInf(r, 0) {
				r = 0
			}
			w[j] += r * r * l
		}
	}
	best, bestCost := s.Root, math.Inf(1)
	for j := 0; j < n; j++ {
		if (len(adj[j]) < 2 && n > 2) || (allowed != nil && !allowed[j]) {
			continue
		}
		dist := shortestPaths(s, adj, j)
		cost := 0.0
		for k, dk := range dist {
			cost += w[k] * dk
		}
		if cost < bestCost*(1-1e-12) {
			best, bestCost = j, cost
		}
	}
	return best
}

// shortestPaths returns the bone-length distance from src to every joint
// (Dijkstra).
func shortestPaths(s *static.Skeleton, adj [][]int, src int) []float64 {
	dist := make([]float64, len(s.Joints))
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[src] = 0
	h := &distHeap{{src, 0}}
	for h.Len() > 0 {
		it := heap.Pop(h).(distItem)
		if it.d > dist[it.j] {
			continue
		}
		for _, k := range adj[it.j] {
			if nd := it.d + s.Joints[it.j].Dist(s.Joints[k]); nd < dist[k] {
				dist[k] = nd
				heap.Push(h, distItem{k, nd})
			}
		}
	}
	return dist
}

type distItem struct {
	j int
	d float64
}

type distHeap []distItem

func (h distHeap) Len() int { return len(h) }
func (h distHeap) Less(i, k int) bool {
	if h[i].d != h[k].d {
		return h[i].d < h[k].d
	}
	return h[i].j < h[k].j
}
func (h distHeap) Swap(i, k int) { h[i], h[k] = h[k], h[i] }
func (h *distHeap) Push(x any)   { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
