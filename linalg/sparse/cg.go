package sparse

import (
	"fmt"
	"math"
)

// CG solves A x = b for symmetric positive definite A by conjugate
// gradients with a Jacobi (diagonal) preconditioner, starting from x (nil:
// zero), until |r| ≤ tol·|b| or maxIter iterations. It returns x and the
// iterations used, or an error when it did not converge.
func CG(a *CSR, b, x []float64, tol float64, maxIter int) ([]float64, int, error) {
	n := a.N
	if x == nil {
		x = make([]float64, n)
	}
	inv := make([]float64, n)
	for i := 0; i < n; i++ {
		d := a.At(i, i)
		if d <= 0 {
			return x, 0, fmt.Errorf("sparse: diagonal %d is %g: %w", i, d, ErrNotPositiveDefinite)
		}
		inv[i] = 1 / d
	}
	r := a.MulVec(nil, x)
	for i := range r {
		r[i] = b[i] - r[i]
	}
	z := make([]float64, n)
	for i := range z {
		z[i] = inv[i] * r[i]
	}
	p := append([]float64(nil), z...)
	ap := make([]float64, n)
	rz := dot(r, z)
	bn := math.Sqrt(dot(b, b))
	if bn == 0 {
		bn = 1
	}
	for it := 1; it <= maxIter; it++ {
		ap = a.MulVec(ap, p)
		pap := dot(p, ap)
		if pap <= 0 {
			return x, it, fmt.Errorf("sparse: pᵀAp = %g: %w", pap, ErrNotPositiveDefinite)
		}
		alpha := rz / pap
		for i := range x {
			x[i] += alpha * p[i]
			r[i] -= alpha * ap[i]
		}
		if math.Sqrt(dot(r, r)) <= tol*bn {
			return x, it, nil
		}
		for i := range z {
			z[i] = inv[i] * r[i]
		}
		rz2 := dot(r, z)
		beta := rz2 / rz
		rz = rz2
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return x, maxIter, fmt.Errorf("sparse: conjugate gradients did not reach %g in %d iterations", tol, maxIter)
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
