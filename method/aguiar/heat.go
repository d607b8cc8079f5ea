package aguiar

import (
	"fmt"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/method/skinweights"
)

// bones returns frame f's bone segments: from each bone's head to each
// child's head, or for a leaf to its patch's center.
func bones(m *skinning.Model, h skinning.Hierarchy, center []linalg.Vec3, f int) []skinweights.Segment {
	var out []skinweights.Segment
	leaf := make([]bool, m.B)
	for i := range leaf {
		leaf[i] = true
	}
	head := func(x int32) linalg.Vec3 { return m.M[f*m.B+int(x)].Apply(h.Head[x]) }
	for _, x := range h.Order {
		if p := h.Parent[x]; p >= 0 {
			leaf[p] = false
			out = append(out, skinweights.Segment{A: head(p), B: head(x), Joint: int(p)})
		}
	}
	for x := 0; x < m.B; x++ {
		if leaf[x] {
			out = append(out, skinweights.Segment{A: head(int32(x)), B: m.M[f*m.B+x].Apply(center[x]), Joint: x})
		}
	}
	return out
}

// heatWeights computes bone heat weights (§7, after Baran & Popović 2007)
// in each of frames and averages them: per frame, the bones posed in that
// frame diffuse over the mesh posed in that frame (hs, made for m's rest
// pose and triangles, holds the system: one symbolic analysis serves
// every frame). It returns N·B weights.
func heatWeights(hs *skinweights.HeatSolver, m *skinning.Model, h skinning.Hierarchy, center []linalg.Vec3, frames []int) ([]float64, error) {
	n, b := m.N, m.B
	sums := make([][]float64, len(frames))
	errs := make([]error, len(frames))
	par.For(len(frames), 1, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			f := frames[k]
			sums[k], errs[k] = hs.Solve(m.Frame(f), bones(m, h, center, f), b)
			if errs[k] != nil {
				errs[k] = fmt.Errorf("frame %d: %w", f+1, errs[k])
			}
		}
	})
	out := make([]float64, n*b)
	for k, s := range sums {
		if errs[k] != nil {
			return nil, errs[k]
		}
		for i := range out {
			out[i] += s[i] / float64(len(frames))
		}
	}
	return out, nil
}
