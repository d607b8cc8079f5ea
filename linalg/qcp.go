package linalg

import "math"

// MaxRotationTrace returns max over rotations R of tr(Rᵀ·a) — the largest
// eigenvalue of Horn's 4×4 matrix for a (see BestRotation) — without
// computing the rotation: Newton's method on the matrix's characteristic
// polynomial λ⁴ + c₂λ² + c₁λ + c₀ (Theobald 2005, "QCP"), started above
// the largest root, where the quartic is increasing and convex, so the
// iteration falls monotonically onto it. Clustering uses it to price a
// rigid fit: the fit's squared error is Σ|p̂|² + Σ|q̂|² − 2·MaxRotationTrace.
func MaxRotationTrace(a Mat3) float64 {
	sxx, sxy, sxz := a[0][0], a[1][0], a[2][0]
	syx, syy, syz := a[0][1], a[1][1], a[2][1]
	szx, szy, szz := a[0][2], a[1][2], a[2][2]
	n := [4][4]float64{
		{sxx + syy + szz, syz - szy, szx - sxz, sxy - syx},
		{syz - szy, sxx - syy - szz, sxy + syx, szx + sxz},
		{szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy},
		{sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz},
	}
	if l, ok := maxRotationTraceNewton(a, n); ok {
		return l
	}
	vals, _ := SymEigen4(n)
	return vals[0]
}

// maxRotationTraceNewton runs MaxRotationTrace's Newton iteration on
// Horn's matrix n of a; false when it cannot settle (a multiple root,
// where Newton crawls). A zero a gives 0, true.
func maxRotationTraceNewton(a Mat3, n [4][4]float64) (float64, bool) {
	var f2 float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			f2 += a[i][j] * a[i][j]
		}
	}
	if f2 == 0 {
		return 0, true
	}
	c2 := -2 * f2
	c1 := -8 * a.Det()
	c0 := det4(n)
	// tr(RᵀA) ≤ Σ singular values ≤ √3·‖A‖_F.
	l := math.Sqrt(3 * f2)
	for it := 0; it < 60; it++ {
		l2 := l * l
		p := l2*l2 + c2*l2 + c1*l + c0
		dp := 4*l2*l + 2*c2*l + c1
		if dp <= 1e-12*f2*math.Sqrt(f2) {
			return 0, false
		}
		step := p / dp
		l -= step
		if math.Abs(step) <= 1e-13*math.Sqrt(f2) {
			return l, true
		}
	}
	return 0, false
}

// det4 returns the determinant of a 4×4 matrix by cofactor expansion.
func det4(m [4][4]float64) float64 {
	s0 := m[0][0]*m[1][1] - m[1][0]*m[0][1]
	s1 := m[0][0]*m[1][2] - m[1][0]*m[0][2]
	s2 := m[0][0]*m[1][3] - m[1][0]*m[0][3]
	s3 := m[0][1]*m[1][2] - m[1][1]*m[0][2]
	s4 := m[0][1]*m[1][3] - m[1][1]*m[0][3]
	s5 := m[0][2]*m[1][3] - m[1][2]*m[0][3]
	c5 := m[2][2]*m[3][3] - m[3][2]*m[2][3]
	c4 := m[2][1]*m[3][3] - m[3][1]*m[2][3]
	c3 := m[2][1]*m[3][2] - m[3][1]*m[2][2]
	c2 := m[2][0]*m[3][3] - m[3][0]*m[2][3]
	c1 := m[2][0]*m[3][2] - m[3][0]*m[2][2]
	c0 := m[2][0]*m[3][1] - m[3][0]*m[2][1]
	return s0*c5 - s1*c4 + s2*c3 + s3*c2 - s4*c1 + s5*c0
}
