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
	pairs *pairSums
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
	s.pairs = p.newPairSums()
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
	clear(sys.g[:])
	clear(sys.h[:])
	u := p.Rest[i]
	// h_a = (1/F) Σ_f (R_a u + T_a)·v_f = (1/F) u·Σ_f R_aᵀv_f + (1/F) Σ_f T_a·v_f.
	var rv [maxCand]linalg.Vec3
	for f := 0; f < p.F; f++ {
		v := p.Frames[f*p.N+i]
		mf := p.M[f*p.B : (f+1)*p.B]
		for a := 0; a < n; a++ {
			m := &mf[sys.bone[a]]
			rv[a][0] += m.M[0][0]*v[0] + m.M[1][0]*v[1] + m.M[2][0]*v[2]
			rv[a][1] += m.M[0][1]*v[0] + m.M[1][1]*v[1] + m.M[2][1]*v[2]
			rv[a][2] += m.M[0][2]*v[0] + m.M[1][2]*v[1] + m.M[2][2]*v[2]
			sys.h[a] += m.T[0]*v[0] + m.T[1]*v[1] + m.T[2]*v[2]
		}
	}
	inv := 1 / float64(p.F)
	for a := 0; a < n; a++ {
		sys.h[a] = (sys.h[a] + u.Dot(rv[a])) * inv
		// G_ab from the frame sums of the bone pair (pairSums), so it costs
		// the same for any number of frames.
		for b := a; b < n; b++ {
			ps := s.pairs.at(sys.bone[a], sys.bone[b])
			g := u.Dot(ps.rr.MulVec(u)) + u.Dot(ps.rtA) + u.Dot(ps.rtB) + ps.tt
			sys.g[a*n+b] = g * inv
			sys.g[b*n+a] = g * inv
		}
	}
}

// pairSum holds, for bones a ≤ b, Σ_f R_aᵀR_b, Σ_f R_aᵀT_b + … the frame
// sums that make (1/F)Σ_f (R_a u + T_a)·(R_b u + T_b) a function of u alone:
// uᵀ(Σ R_aᵀR_b)u + u·Σ R_aᵀT_b + u·Σ R_bᵀT_a + Σ T_a·T_b.
type pairSum struct {
	rr       linalg.Mat3
	rtA, rtB linalg.Vec3 // Σ R_aᵀT_b and Σ R_bᵀT_a
	tt       float64
}

type pairSums struct {
	b int
	s []pairSum // b×b, only a ≤ b filled
}

func (ps *pairSums) at(a, b int32) *pairSum {
	if a > b {
		a, b = b, a
	}
	return &ps.s[int(a)*ps.b+int(b)]
}

// newPairSums sums every bone pair over the frames, in parallel over pairs.
func (p *problem) newPairSums() *pairSums {
	ps := &pairSums{b: p.B, s: make([]pairSum, p.B*p.B)}
	par.For(p.B, 1, func(lo, hi int) {
		for a := lo; a < hi; a++ {
			for b := a; b < p.B; b++ {
				s := &ps.s[a*p.B+b]
				for f := 0; f < p.F; f++ {
					ma, mb := p.M[f*p.B+a], p.M[f*p.B+b]
					rat := ma.M.T()
					s.rr = s.rr.Add(rat.Mul(mb.M))
					s.rtA = s.rtA.Add(rat.MulVec(mb.T))
					s.rtB = s.rtB.Add(mb.M.T().MulVec(ma.T))
					s.tt += ma.T.Dot(mb.T)
				}
			}
		}
	})
	return ps
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
