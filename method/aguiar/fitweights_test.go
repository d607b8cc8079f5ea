package aguiar

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/method/skinning"
)

// TestFitWeights: on the tube's true transforms, refitting the heat
// weights keeps every vertex on its heat bones with convex weights, and
// never fits the frames worse (the heat weights are a candidate), however
// hard they pull.
func TestFitWeights(t *testing.T) {
	m, tris, h, center := tubeModel(t, 12)
	w := tubeHeat(t, m, tris, h, center, []int{0, 5})
	setWeights(m, w, 4)
	heatB, heatW := append([]int32(nil), m.WB...), append([]float64(nil), m.WW...)
	heatSSE := m.SSE()
	for _, lambda := range []float64{0, heatPull, 1} {
		fitWeights(m, heatB, heatW, lambda)
		for i := 0; i < m.N; i++ {
			var sum float64
			for k := 0; k < skinning.MaxK; k++ {
				b, x := m.WB[i*skinning.MaxK+k], m.WW[i*skinning.MaxK+k]
				if b < 0 {
					continue
				}
				if x <= 0 {
					t.Fatalf("λ %g vertex %d: weight %v", lambda, i, x)
				}
				found := false
				for q := 0; q < skinning.MaxK; q++ {
					found = found || heatB[i*skinning.MaxK+q] == b
				}
				if !found {
					t.Fatalf("λ %g vertex %d: bone %d is not one of its heat bones", lambda, i, b)
				}
				sum += x
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("λ %g vertex %d: weights sum to %v", lambda, i, sum)
			}
		}
		sse := m.SSE()
		t.Logf("λ %g: SSE %.4g (heat weights %.4g)", lambda, sse, heatSSE)
		if sse > heatSSE*(1+1e-9) {
			t.Errorf("λ %g: SSE %.4g, worse than the heat weights' %.4g", lambda, sse, heatSSE)
		}
		if lambda == 0 && sse > 0.5*heatSSE {
			t.Errorf("free fit SSE %.4g, not well below the heat weights' %.4g", sse, heatSSE)
		}
	}
}
