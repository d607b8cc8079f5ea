package aguiar

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// heatPull weighs |w − heat|² against the data term of fitWeights, whose
// unit is the squared unit-sphere distance per frame: a weight leaves its
// heat value only where that moves the vertex by more than about 0.01
// (half a percent of the diagonal) on average.
const heatPull = 1e-4

// fitWeights re-solves every vertex's weights, over the bones its heat
// weights (heatB, heatW: MaxK slots per vertex) use, for the current
// transforms: the least-squares fit of its frames with convex weights
// (linalg.SimplexLS), plus lambda·|w − heat|², which keeps the heat
// weights where the motion cannot tell the bones apart.
func fitWeights(m *skinning.Model, heatB []int32, heatW []float64, lambda float64) {
	ps := m.NewPairSums()
	par.For(m.N, 256, func(lo, hi int) {
		var bones [skinning.MaxK]int32
		var w0, w [skinning.MaxK]float64
		var g [skinning.MaxK * skinning.MaxK]float64
		var h [skinning.MaxK]float64
		for i := lo; i < hi; i++ {
			n := 0
			for s := 0; s < skinning.MaxK; s++ {
				if b := heatB[i*skinning.MaxK+s]; b >= 0 {
					bones[n], w0[n] = b, heatW[i*skinning.MaxK+s]
					n++
				}
			}
			if n < 2 {
				continue // one bone: weight 1 either way
			}
			m.System(i, bones[:n], ps, g[:n*n], h[:n])
			for a := 0; a < n; a++ {
				g[a*n+a] += lambda
				h[a] += lambda * w0[a]
			}
			linalg.SimplexLS(g[:n*n], h[:n], n, 1e-12, w[:n])
			for s := 0; s < skinning.MaxK; s++ {
				m.WB[i*skinning.MaxK+s], m.WW[i*skinning.MaxK+s] = -1, 0
			}
			k := 0
			for a := 0; a < n; a++ {
				if w[a] > 0 {
					m.WB[i*skinning.MaxK+k], m.WW[i*skinning.MaxK+k] = bones[a], w[a]
					k++
				}
			}
			skinning.NormalizeSlots(m.WB[i*skinning.MaxK:(i+1)*skinning.MaxK], m.WW[i*skinning.MaxK:(i+1)*skinning.MaxK])
		}
	})
}
