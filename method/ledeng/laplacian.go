package ledeng

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
)

// rigidness returns, aligned with p.Top.Ring, the row-normalized
// rigidness Laplacian weights of Le & Deng 2014, Eq. 4: a neighbour k of
// vertex i gets d_ik / Σ_h d_ih with
//
//	d_ik = 1 / sqrt( (1/F) Σ_f (|v_i^f − v_k^f| − |u_i − u_k|)² )   (Eq. 4b)
//
// so vertices whose distance never changes (the same rigid part) pull
// each other's weights together most.
func (p *problem) rigidness() []float64 {
	top := p.Top
	a := make([]float64, len(top.Ring))
	// Below this spread (unit-sphere units) an edge counts as perfectly
	// rigid; it bounds d so exact rigid pairs do not divide by zero.
	const floor = 1e-6
	par.For(p.N, 512, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s, e := top.RingStart[i], top.RingStart[i+1]
			var sum float64
			for r := s; r < e; r++ {
				k := top.Ring[r]
				rest := p.Rest[i].Dist(p.Rest[k])
				var v float64
				for f := 0; f < p.F; f++ {
					d := p.Pos(f, i).Dist(p.Pos(f, k)) - rest
					v += d * d
				}
				d := 1 / math.Max(math.Sqrt(v/float64(p.F)), floor)
				a[r] = d
				sum += d
			}
			for r := s; r < e; r++ {
				a[r] /= sum
			}
		}
	})
	return a
}
