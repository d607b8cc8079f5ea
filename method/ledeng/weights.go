package ledeng

import (
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// maxCand bounds the candidate bones of one vertex.
const maxCand = linalg.MaxSimplexVars

// vertexSystem is the data term of one vertex's weight solve over its
// candidate bones: (1/F)|A w − b|² = wᵀGw − 2hᵀw + const, A's columns being
// the vertex moved by each candidate bone in every frame.
type vertexSystem struct {
	n    int
	bone [maxCand]int32
	g    [maxCand * maxCand]float64 // n×n, row-major with stride n
	h    [maxCand]float64
}

// weightSolver updates skinning weights by the local solve of Eq. 5.
type weightSolver struct {
	p     *problem
	k     int       // influences per vertex
	omega float64   // smoothness weight ω; 0 disables the Laplacian term
	lap   []float64 // rigidness Laplacian, aligned with p.Top.Ring
	sys   []vertexSystem
	pairs *skinning.PairSums
}

// update re-solves every vertex's weights. The data systems are built once;
// then sweeps Jacobi passes each solve every vertex against the previous
// pass's neighbour weights (deterministic and parallel, unlike the
// paper's sequential Gauss–Seidel order, to the same fixed point).
func (s *weightSolver) update(sweeps int) {
	p := s.p
	if len(s.sys) != p.N {
		s.sys = make([]vertexSystem, p.N)
	}
	s.pairs = p.NewPairSums()
	par.For(p.N, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s.buildSystem(i)
		}
	})
	if s.omega == 0 {
		sweeps = 1
	}
	wb := make([]int32, len(p.WB))
	ww := make([]float64, len(p.WW))
	for it := 0; it < sweeps; it++ {
		par.For(p.N, 256, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				s.solveVertex(i, wb[i*skinning.MaxK:(i+1)*skinning.MaxK], ww[i*skinning.MaxK:(i+1)*skinning.MaxK])
			}
		})
		p.WB, wb = wb, p.WB
		p.WW, ww = ww, p.WW
	}
}

// buildSystem gathers vertex i's candidate bones (its own and its
// one-ring's current bones) and its data term.
func (s *weightSolver) buildSystem(i int) {
	p := s.p
	sys := &s.sys[i]
	sys.n = 0
	add := func(j int32) {
		if j < 0 {
			return
		}
		for c := 0; c < sys.n; c++ {
			if sys.bone[c] == j {
				return
			}
		}
		if sys.n < maxCand {
			sys.bone[sys.n] = j
			sys.n++
		}
	}
	for k := 0; k < skinning.MaxK; k++ {
		add(p.WB[i*skinning.MaxK+k])
	}
	for _, nb := range p.Top.Neighbors(i) {
		for k := 0; k < skinning.MaxK; k++ {
			add(p.WB[nb*skinning.MaxK+k])
		}
	}
	n := sys.n
	sort.Slice(sys.bone[:n], func(a, b int) bool { return sys.bone[a] < sys.bone[b] })
	p.System(i, sys.bone[:n], s.pairs, sys.g[:n*n], sys.h[:n])
}

// solveVertex solves Eq. 5 for vertex i into the slots wb, ww: the data
// term plus ω|w − w̄|², w̄ the rigidness-weighted mean of the neighbours'
// current weights; the k candidates that fit best alone are kept and
// solved exactly for non-negative weights summing to one.
func (s *weightSolver) solveVertex(i int, wb []int32, ww []float64) {
	p := s.p
	sys := &s.sys[i]
	n := sys.n
	var bar [maxCand]float64
	if s.omega > 0 {
		top := p.Top
		for r := top.RingStart[i]; r < top.RingStart[i+1]; r++ {
			nb, a := top.Ring[r], s.lap[r]
			for k := 0; k < skinning.MaxK; k++ {
				j := p.WB[nb*skinning.MaxK+k]
				if j < 0 {
					continue
				}
				for c := 0; c < n; c++ {
					if sys.bone[c] == j {
						bar[c] += a * p.WW[nb*skinning.MaxK+k]
						break
					}
				}
			}
		}
	}
	// Greedy choice of the k best single bones (the sparseness constraint).
	var order [maxCand]int
	var single [maxCand]float64
	for c := 0; c < n; c++ {
		order[c] = c
		single[c] = sys.g[c*n+c] + s.omega - 2*(sys.h[c]+s.omega*bar[c])
	}
	sort.Slice(order[:n], func(a, b int) bool {
		if single[order[a]] != single[order[b]] {
			return single[order[a]] < single[order[b]]
		}
		return order[a] < order[b]
	})
	k := min(s.k, n)
	sort.Ints(order[:k])
	var g [skinning.MaxK * skinning.MaxK]float64
	var h, w [skinning.MaxK]float64
	for a := 0; a < k; a++ {
		ca := order[a]
		h[a] = sys.h[ca] + s.omega*bar[ca]
		for b := 0; b < k; b++ {
			g[a*k+b] = sys.g[ca*n+order[b]]
		}
	}
	// A tiny ridge keeps coincident bones (equal columns) solvable.
	linalg.SimplexLS(g[:k*k], h[:k], k, s.omega+1e-12, w[:k])
	for a := 0; a < skinning.MaxK; a++ {
		if a < k && w[a] > 0 {
			wb[a], ww[a] = sys.bone[order[a]], w[a]
		} else {
			wb[a], ww[a] = -1, 0
		}
	}
	skinning.NormalizeSlots(wb, ww)
}
