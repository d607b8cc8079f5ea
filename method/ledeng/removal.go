package ledeng

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// removalCost estimates, for every bone, how much the data term (Eq. 3b,
// in the per-vertex, per-frame units of the weight solver's systems)
// grows if the bone goes: each vertex it moves re-solves its weights over
// its other candidates, transforms held fixed. The solver's systems must
// be current (built by update for the present bones). A bone that is the
// only candidate of some vertex costs +Inf.
//
// Both sides of the difference come from the same family of weight sets —
// the greedy choice of solveVertex, the vertex's current bones, and those
// with one more candidate — and a vertex never gains from losing a bone:
// the greedy choice alone is not the best set, and comparing it with a
// better one found without the bone made costs negative and the cheapest
// bone a matter of chance (most on exact data, where the errors are tiny).
func (s *weightSolver) removalCost() []float64 {
	p := s.p
	delta := make([]float64, p.N*skinning.MaxK)
	par.For(p.N, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sys := &s.sys[i]
			if sys.n == 0 {
				continue
			}
			wb := p.WB[i*skinning.MaxK : (i+1)*skinning.MaxK]
			d := delta[i*skinning.MaxK : (i+1)*skinning.MaxK]
			base := s.familyObjective(sys, wb, -1)
			for k, j := range wb {
				if j >= 0 {
					d[k] = s.familyObjective(sys, wb, j)
					base = math.Min(base, d[k])
				}
			}
			for k, j := range wb {
				if j >= 0 {
					d[k] -= base
				}
			}
		}
	})
	cost := make([]float64, p.B)
	for x, d := range delta {
		if j := p.WB[x]; j >= 0 {
			cost[j] += d
		}
	}
	return cost
}

// familyObjective is the least data objective wᵀGw − 2hᵀw of the vertex
// over its weight sets without bone skip (−1: none): the greedy choice of
// the s.k best single bones, its current bones wb, and wb with one more
// candidate. +Inf when no candidate is left.
func (s *weightSolver) familyObjective(sys *vertexSystem, wb []int32, skip int32) float64 {
	obj := s.greedyObjective(sys, skip)
	obj = math.Min(obj, s.setObjective(sys, wb, skip, -1))
	for c := 0; c < sys.n; c++ {
		if b := sys.bone[c]; b != skip && !holds(wb, b) {
			obj = math.Min(obj, s.setObjective(sys, wb, skip, b))
		}
	}
	return obj
}

// greedyObjective solves the vertex's data term over the candidates but
// skip that choose keeps, as solveVertex does; +Inf when no candidate is
// left.
func (s *weightSolver) greedyObjective(sys *vertexSystem, skip int32) float64 {
	var idx [maxCand]int
	var w [maxCand]float64
	m, _ := choose(sys, sys.h[:sys.n], 1e-12, s.k, skip, idx[:], w[:])
	if m == 0 {
		return math.Inf(1)
	}
	return s.solveSet(sys, idx[:m])
}

// setObjective solves the vertex's data term over its bones wb but skip,
// plus extra (≥ 0), all looked up among its candidates; +Inf when none is
// left or more than s.k.
func (s *weightSolver) setObjective(sys *vertexSystem, wb []int32, skip, extra int32) float64 {
	var idx [skinning.MaxK + 1]int
	m := 0
	for c := 0; c < sys.n; c++ {
		if b := sys.bone[c]; b != skip && (b == extra || holds(wb, b)) {
			idx[m] = c
			m++
		}
	}
	if m == 0 || m > s.k {
		return math.Inf(1)
	}
	return s.solveSet(sys, idx[:m])
}

// solveSet solves the data term for non-negative weights summing to one
// over the candidates idx (at most skinning.MaxK) and returns its
// objective.
func (s *weightSolver) solveSet(sys *vertexSystem, idx []int) float64 {
	n, k := sys.n, len(idx)
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

// holds reports whether bone j is among the slots wb.
func holds(wb []int32, j int32) bool {
	for _, b := range wb {
		if b == j {
			return true
		}
	}
	return false
}
