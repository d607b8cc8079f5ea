package ledeng

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// removalCost estimates, for every bone, how much the data term (Eq. 3b,
// in the per-vertex units of the weight solver's systems) grows if the
// bone goes: each vertex it moves re-solves its weights over its other
// candidates, transforms held fixed. The solver's systems must be current
// (built by update for the present bones).
func (s *weightSolver) removalCost() []float64 {
	p := s.p
	cost := make([]float64, p.B)
	for i := 0; i < p.N; i++ {
		sys := &s.sys[i]
		if sys.n == 0 {
			continue
		}
		base := s.bestObjective(sys, -1)
		for k := 0; k < skinning.MaxK; k++ {
			j := p.WB[i*skinning.MaxK+k]
			if j < 0 {
				continue
			}
			if c := s.bestObjective(sys, j); math.IsInf(c, 1) {
				cost[j] = math.Inf(1) // the vertex has no other bone
			} else {
				cost[j] += c - base
			}
		}
	}
	return cost
}

// bestObjective solves the vertex's data term over its candidates (all but
// bone skip), keeping the best s.k by the greedy rule, and returns the
// objective wᵀGw − 2hᵀw; +Inf when no candidate is left.
func (s *weightSolver) bestObjective(sys *vertexSystem, skip int32) float64 {
	n := sys.n
	var idx [maxCand]int
	m := 0
	for c := 0; c < n; c++ {
		if sys.bone[c] != skip {
			idx[m] = c
			m++
		}
	}
	if m == 0 {
		return math.Inf(1)
	}
	// Greedy: the k best single bones.
	for a := 1; a < m; a++ {
		for b := a; b > 0; b-- {
			x, y := idx[b], idx[b-1]
			if sys.g[x*n+x]-2*sys.h[x] < sys.g[y*n+y]-2*sys.h[y] {
				idx[b], idx[b-1] = y, x
			}
		}
	}
	k := min(s.k, m)
	var g [skinning.MaxK * skinning.MaxK]float64
	var h, w [skinning.MaxK]float64
	for a := 0; a < k; a++ {
		h[a] = sys.h[idx[a]]
		for b := 0; b < k; b++ {
			g[a*k+b] = sys.g[idx[a]*n+idx[b]]
		}
	}
	linalg.SimplexLS(g[:k*k], h[:k], k, 1e-12, w[:k])
	var obj float64
	for a := 0; a < k; a++ {
		obj -= 2 * h[a] * w[a]
		for b := 0; b < k; b++ {
			obj += w[a] * g[a*k+b] * w[b]
		}
	}
	return obj
}
