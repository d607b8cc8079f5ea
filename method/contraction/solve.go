package contraction

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/linalg/sparse"
)

// solveTolerance is the relative residual at which conjugate gradients
// stop; positions are then exact to far below the merge length.
const solveTolerance = 1e-7

// maxSolveIterations bounds conjugate gradients per coordinate; the
// preconditioner keeps the count to tens.
const maxSolveIterations = 500

// solver solves one contraction step, the least-squares system
// [W_L·L; W_H] V' = [0; W_H·V] (the Collada paper's Eq. 2), through its
// normal equations
//
//	A V' = (W_L²·LᵀL + W_H²) V' = W_H²·V
//
// by conjugate gradients preconditioned with P⁻², P = W_L·L + W_H (L is
// symmetric). For a constant W_H, P² = W_L²·L² + 2·W_L·W_H·L + W_H² lies
// between A and 2A, so a few tens of iterations suffice however large
// W_L grows; and P has L's own pattern, whose sparse Cholesky factor (one
// symbolic analysis for all iterations) is several times smaller than
// that of A's two-ring pattern (on the 8356-vertex lion, factoring A
// took 0.67 s per iteration, far more than the whole preconditioned
// solve).
type solver struct {
	lap *laplacian
	p   *sparse.CSR
	sym *sparse.Symbolic
}

func newSolver(lap *laplacian) *solver {
	l := lap.l
	return &solver{lap: lap, p: &sparse.CSR{N: l.N, RowPtr: l.RowPtr, Col: l.Col, Val: make([]float64, len(l.Val))}}
}

// step returns the solution for the Laplacian last computed, the
// contraction weight wl, the attraction weights wh and the current
// positions pos, and the largest number of iterations a coordinate took.
func (s *solver) step(pos []linalg.Vec3, wl float64, wh []float64) ([]linalg.Vec3, int, error) {
	l := s.lap.l
	n := l.N
	for i := 0; i < n; i++ {
		for k := l.RowPtr[i]; k < l.RowPtr[i+1]; k++ {
			s.p.Val[k] = wl * l.Val[k]
			if int(l.Col[k]) == i {
				s.p.Val[k] += wh[i]
			}
		}
	}
	if s.sym == nil {
		var err error
		if s.sym, err = sparse.Analyze(s.p); err != nil {
			return nil, 0, fmt.Errorf("contraction: %w", err)
		}
	}
	f, err := s.sym.Factor(s.p)
	if err != nil {
		return nil, 0, fmt.Errorf("contraction: preconditioner: %w", err)
	}
	var iters [3]int
	var errs [3]error
	out := make([]linalg.Vec3, n)
	par.For(3, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			x := make([]float64, n)
			b := make([]float64, n)
			for i, p := range pos {
				x[i] = p[c]
				b[i] = wh[i] * wh[i] * p[c]
			}
			iters[c], errs[c] = pcg(l, wl, wh, f, b, x)
			for i := range out {
				out[i][c] = x[i]
			}
		}
	})
	most := max(iters[0], iters[1], iters[2])
	for _, e := range errs {
		if e != nil {
			return nil, most, e
		}
	}
	return out, most, nil
}

// pcg solves A x = b, A = wl²·LᵀL + diag(wh²), from the guess in x, with
// the preconditioner (f·f)⁻¹. It returns the iterations used.
func pcg(l *sparse.CSR, wl float64, wh []float64, f *sparse.Factor, b, x []float64) (int, error) {
	n := l.N
	tmp := make([]float64, n)
	mul := func(dst, v []float64) {
		mulVec(tmp, l, v)
		mulVec(dst, l, tmp)
		for i := range dst {
			dst[i] = wl*wl*dst[i] + wh[i]*wh[i]*v[i]
		}
	}
	r := make([]float64, n)
	mul(r, x)
	for i := range r {
		r[i] = b[i] - r[i]
	}
	bn := math.Sqrt(dot(b, b))
	if bn == 0 {
		bn = 1
	}
	z := make([]float64, n)
	y := make([]float64, n)
	precondition := func() {
		y = f.Solve(y, r)
		z = f.Solve(z, y)
	}
	precondition()
	p := append([]float64(nil), z...)
	ap := make([]float64, n)
	rz := dot(r, z)
	for it := 0; it < maxSolveIterations; it++ {
		if math.Sqrt(dot(r, r)) <= solveTolerance*bn {
			return it, nil
		}
		mul(ap, p)
		pap := dot(p, ap)
		if !(pap > 0) {
			return it, fmt.Errorf("contraction: conjugate gradients broke down (pᵀAp = %g)", pap)
		}
		alpha := rz / pap
		for i := range x {
			x[i] += alpha * p[i]
			r[i] -= alpha * ap[i]
		}
		precondition()
		rz2 := dot(r, z)
		beta := rz2 / rz
		rz = rz2
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return maxSolveIterations, fmt.Errorf("contraction: conjugate gradients did not reach a relative residual of %g in %d iterations", solveTolerance, maxSolveIterations)
}

// mulVec writes m·v into dst, serially: the three coordinates already
// run in parallel.
func mulVec(dst []float64, m *sparse.CSR, v []float64) {
	for i := 0; i < m.N; i++ {
		var s float64
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			s += m.Val[k] * v[m.Col[k]]
		}
		dst[i] = s
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
