package aguiar

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/linalg/sparse"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
)

// segment is a bone as a line segment in one frame.
type segment struct {
	a, b linalg.Vec3
	bone int
}

func (s segment) dist(p linalg.Vec3) float64 {
	ab := s.b.Sub(s.a)
	t := 0.0
	if l2 := ab.Norm2(); l2 > 0 {
		t = math.Max(0, math.Min(1, p.Sub(s.a).Dot(ab)/l2))
	}
	return p.Dist(s.a.Add(ab.Scale(t)))
}

// bones returns frame f's bone segments: from each bone's head to each
// child's head, or for a leaf to its patch's center.
func bones(m *skinning.Model, h skinning.Hierarchy, center []linalg.Vec3, f int) []segment {
	var out []segment
	leaf := make([]bool, m.B)
	for i := range leaf {
		leaf[i] = true
	}
	head := func(x int32) linalg.Vec3 { return m.M[f*m.B+int(x)].Apply(h.Head[x]) }
	for _, x := range h.Order {
		if p := h.Parent[x]; p >= 0 {
			leaf[p] = false
			out = append(out, segment{head(p), head(x), int(p)})
		}
	}
	for x := 0; x < m.B; x++ {
		if leaf[x] {
			out = append(out, segment{head(int32(x)), m.M[f*m.B+x].Apply(center[x]), x})
		}
	}
	return out
}

// heatWeights computes bone heat weights (§7, after Baran & Popović 2007)
// in each of frames and averages them: per frame, with L the cotangent
// Laplacian and M the lumped mass of that frame, solve
// (L + M H) w_b = M H p_b for every bone b — the mass-weighted form of
// (−Δ + H) w = H p — where H_ii = 1/d_i², d_i the distance from vertex i
// to its nearest bone, and p_b marks the vertices whose nearest bone is b.
// One symbolic analysis serves every frame. It returns N·B weights.
// (Bones are not tested for visibility from the vertex: the nearest bone
// counts.)
func heatWeights(m *skinning.Model, tris [][3]int, h skinning.Hierarchy, center []linalg.Vec3, frames []int) ([]float64, error) {
	n, b := m.N, m.B
	pattern := mesh.CotanPositive(m.Rest, tris).AddDiag(make([]float64, n))
	sym, err := sparse.Analyze(pattern)
	if err != nil {
		return nil, err
	}
	sums := make([][]float64, len(frames))
	errs := make([]error, len(frames))
	par.For(len(frames), 1, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			sums[k], errs[k] = heatFrame(m, tris, h, center, frames[k], sym, n, b)
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

func heatFrame(m *skinning.Model, tris [][3]int, h skinning.Hierarchy, center []linalg.Vec3, f int, sym *sparse.Symbolic, n, b int) ([]float64, error) {
	pos := m.Frame(f)
	segs := bones(m, h, center, f)
	mass := mesh.Mass(pos, tris)
	nearest := make([]int, n)
	diag := make([]float64, n)
	for i, p := range pos {
		best, bd := 0, math.Inf(1)
		for _, s := range segs {
			if d := s.dist(p); d < bd {
				best, bd = s.bone, d
			}
		}
		nearest[i] = best
		bd = math.Max(bd, 1e-4) // a vertex on a bone: a strong but finite pull
		diag[i] = mass[i] / (bd * bd)
	}
	a := mesh.CotanPositive(pos, tris).AddDiag(diag)
	fac, err := sym.Factor(a)
	solve := func(x, rhs []float64) ([]float64, error) { return fac.Solve(x, rhs), nil }
	if err != nil {
		// Cannot happen for this M-matrix but on a broken frame: fall
		// back to conjugate gradients.
		solve = func(x, rhs []float64) ([]float64, error) {
			x, _, err := sparse.CG(a, rhs, nil, 1e-10, 20*n)
			return x, err
		}
	}
	w := make([]float64, n*b)
	rhs := make([]float64, n)
	x := make([]float64, n)
	for bone := 0; bone < b; bone++ {
		for i := range rhs {
			rhs[i] = 0
			if nearest[i] == bone {
				rhs[i] = diag[i]
			}
		}
		if x, err = solve(x, rhs); err != nil {
			return nil, fmt.Errorf("frame %d bone %d: %w", f+1, bone, err)
		}
		for i := 0; i < n; i++ {
			w[i*b+bone] = x[i]
		}
	}
	return w, nil
}
