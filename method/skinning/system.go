package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// PairSums holds, for every bone pair a ≤ b, the frame sums that make a
// vertex's least-squares weight system independent of the frame count:
// (1/F)Σ_f (R_a u + T_a)·(R_b u + T_b) = (1/F)[uᵀ(Σ R_aᵀR_b)u + u·Σ R_aᵀT_b
// + u·Σ R_bᵀT_a + Σ T_a·T_b].
type PairSums struct {
	b int
	s []pairSum // b×b, only a ≤ b filled
}

type pairSum struct {
	rr       linalg.Mat3
	rtA, rtB linalg.Vec3 // Σ R_aᵀT_b and Σ R_bᵀT_a
	tt       float64
}

func (ps *PairSums) at(a, b int32) *pairSum {
	if a > b {
		a, b = b, a
	}
	return &ps.s[int(a)*ps.b+int(b)]
}

// NewPairSums sums every bone pair over the frames, in parallel over pairs.
func (p *Model) NewPairSums() *PairSums {
	ps := &PairSums{b: p.B, s: make([]pairSum, p.B*p.B)}
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

// System writes vertex i's weight least-squares system over bones (n of
// them): (1/F)|A w − b|² = wᵀGw − 2hᵀw + const, A's columns being the
// vertex moved by each bone in every frame. g is n×n row-major; it costs
// O(n·F + n²) with ps from NewPairSums for the current transforms.
func (p *Model) System(i int, bones []int32, ps *PairSums, g, h []float64) {
	n := len(bones)
	u := p.Rest[i]
	for a := range h[:n] {
		h[a] = 0
	}
	// h_a = (1/F)Σ_f (R_a u + T_a)·v_f = (1/F)(u·Σ_f R_aᵀv_f + Σ_f T_a·v_f).
	var rvBuf [16]linalg.Vec3
	rv := rvBuf[:0]
	if n <= len(rvBuf) {
		rv = rvBuf[:n]
		clear(rv)
	} else {
		rv = make([]linalg.Vec3, n)
	}
	// Frame-major reads: the parallel loops give a worker consecutive
	// vertices, which share the cache lines of each frame (a vertex-major
	// copy of the frames was faster by little and cost 24 bytes per
	// vertex and frame).
	for f := 0; f < p.F; f++ {
		v := p.Pos(f, i)
		mf := p.M[f*p.B : (f+1)*p.B]
		for a, j := range bones {
			m := &mf[j]
			rv[a][0] += m.M[0][0]*v[0] + m.M[1][0]*v[1] + m.M[2][0]*v[2]
			rv[a][1] += m.M[0][1]*v[0] + m.M[1][1]*v[1] + m.M[2][1]*v[2]
			rv[a][2] += m.M[0][2]*v[0] + m.M[1][2]*v[1] + m.M[2][2]*v[2]
			h[a] += m.T[0]*v[0] + m.T[1]*v[1] + m.T[2]*v[2]
		}
	}
	inv := 1 / float64(p.F)
	for a := 0; a < n; a++ {
		h[a] = (h[a] + u.Dot(rv[a])) * inv
		for b := a; b < n; b++ {
			// The term is symmetric in the pair, so the (min, max) sums serve.
			s := ps.at(bones[a], bones[b])
			x := u.Dot(s.rr.MulVec(u)) + u.Dot(s.rtA) + u.Dot(s.rtB) + s.tt
			g[a*n+b], g[b*n+a] = x*inv, x*inv
		}
	}
}
