package ledeng

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
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
	lap   []float64 // rigidness Laplacian, aligned with p.top.Ring
	sys   []vertexSystem
}

// update re-solves every vertex's weights. The data systems are built once;
// then sweeps Jacobi passes each solve every vertex against the previous
// pass's neighbour weights (deterministic and parallel, unlike the
// paper's sequential Gauss–Seidel order, to the same fixed point).
func (s *weightSolver) update(sweeps int) {
	p := s.p
	if len(s.sys) != p.n {
		s.sys = make([]vertexSystem, p.n)
	}
	par.For(p.n, 256, func(lo, hi int) {
		ys := make([]linalg.Vec3, maxCand)
		for i := lo; i < hi; i++ {
			s.buildSystem(i, ys)
		}
	})
	if s.omega == 0 {
		sweeps = 1
	}
	wb := make([]int32, len(p.wb))
	ww := make([]float64, len(p.ww))
	for it := 0; it < sweeps; it++ {
		par.For(p.n, 256, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				s.solveVertex(i, wb[i*maxK:(i+1)*maxK], ww[i*maxK:(i+1)*maxK])
			}
		})
		p.wb, wb = wb, p.wb
		p.ww, ww = ww, p.ww
	}
}

// buildSystem gathers vertex i's candidate bones (its own and its
// one-ring's current bones) and its data term. ys is scratch.
func (s *weightSolver) buildSystem(i int, ys []linalg.Vec3) {
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
	for k := 0; k < maxK; k++ {
		add(p.wb[i*maxK+k])
	}
	for _, nb := range p.top.Neighbors(i) {
		for k := 0; k < maxK; k++ {
			add(p.wb[nb*maxK+k])
		}
	}
	n := sys.n
	sort.Slice(sys.bone[:n], func(a, b int) bool { return sys.bone[a] < sys.bone[b] })
	clear(sys.g[:])
	clear(sys.h[:])
	u := p.rest[i]
	for f := 0; f < p.f; f++ {
		v := p.frames[f*p.n+i]
		mf := p.m[f*p.b : (f+1)*p.b]
		for a := 0; a < n; a++ {
			ys[a] = mf[sys.bone[a]].Apply(u)
			sys.h[a] += ys[a].Dot(v)
		}
		for a := 0; a < n; a++ {
			for b := a; b < n; b++ {
				sys.g[a*n+b] += ys[a].Dot(ys[b])
			}
		}
	}
	inv := 1 / float64(p.f)
	for a := 0; a < n; a++ {
		sys.h[a] *= inv
		for b := a; b < n; b++ {
			sys.g[a*n+b] *= inv
			sys.g[b*n+a] = sys.g[a*n+b]
		}
	}
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
		top := p.top
		for r := top.RingStart[i]; r < top.RingStart[i+1]; r++ {
			nb, a := top.Ring[r], s.lap[r]
			for k := 0; k < maxK; k++ {
				j := p.wb[nb*maxK+k]
				if j < 0 {
					continue
				}
				for c := 0; c < n; c++ {
					if sys.bone[c] == j {
						bar[c] += a * p.ww[nb*maxK+k]
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
	var g [maxK * maxK]float64
	var h, w [maxK]float64
	for a := 0; a < k; a++ {
		ca := order[a]
		h[a] = sys.h[ca] + s.omega*bar[ca]
		for b := 0; b < k; b++ {
			g[a*k+b] = sys.g[ca*n+order[b]]
		}
	}
	// A tiny ridge keeps coincident bones (equal columns) solvable.
	linalg.SimplexLS(g[:k*k], h[:k], k, s.omega+1e-12, w[:k])
	for a := 0; a < maxK; a++ {
		if a < k && w[a] > 0 {
			wb[a], ww[a] = sys.bone[order[a]], w[a]
		} else {
			wb[a], ww[a] = -1, 0
		}
	}
	normalizeSlots(wb, ww)
}

// normalizeSlots rescales the weights to sum to one, dropping round-off
// negatives.
func normalizeSlots(wb []int32, ww []float64) {
	var sum float64
	for a := range ww {
		if ww[a] <= 0 || math.IsNaN(ww[a]) {
			wb[a], ww[a] = -1, 0
		}
		sum += ww[a]
	}
	if sum == 0 {
		return
	}
	for a := range ww {
		ww[a] /= sum
	}
}
