package linalg

// BestRotation returns the rotation R that maximizes tr(Rᵀ·a), the
// rotation nearest to a. With a = Σ wᵢ qᵢ pᵢᵀ (targets times sources,
// centered) it is the rotation that best maps the pᵢ onto the qᵢ.
//
// It solves Horn's 4×4 symmetric eigenproblem (Horn 1987), which unlike a
// polar decomposition stays well defined when a has rank 1 or 2 (planar or
// collinear point sets): the largest eigenvector is the quaternion.
func BestRotation(a Mat3) Quat {
	// Horn's S is the transpose: S_xy = Σ p_x q_y = a[y][x].
	sxx, sxy, sxz := a[0][0], a[1][0], a[2][0]
	syx, syy, syz := a[0][1], a[1][1], a[2][1]
	szx, szy, szz := a[0][2], a[1][2], a[2][2]
	n := [4][4]float64{
		{sxx + syy + szz, syz - szy, szx - sxz, sxy - syx},
		{syz - szy, sxx - syy - szz, sxy + syx, szx + sxz},
		{szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy},
		{sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz},
	}
	var v [4]float64
	if !qcpVector(a, n, &v) {
		_, e := SymEigen4(n)
		v = [4]float64{e[0][0], e[1][0], e[2][0], e[3][0]}
	}
	q := Quat{v[0], v[1], v[2], v[3]}
	if q.W < 0 {
		q = Quat{-q.W, -q.X, -q.Y, -q.Z}
	}
	return q.Normalize()
}

// qcpVector finds the largest eigenvector of Horn's matrix n the way
// Theobald's QCP does (Liu, Agrafiotis & Theobald 2010): the largest
// eigenvalue λ by Newton's method (MaxRotationTrace), then the largest
// column of the adjugate of n − λI, which is parallel to the eigenvector
// when λ is a simple eigenvalue — about 8× faster than the eigensolver.
// It reports false when λ is (nearly) repeated, where the adjugate
// vanishes and the column is noise; the caller falls back to SymEigen4.
func qcpVector(a Mat3, n [4][4]float64, v *[4]float64) bool {
	l, ok := maxRotationTraceNewton(a, n)
	if !ok || l <= 0 {
		return false
	}
	k := n
	for i := 0; i < 4; i++ {
		k[i][i] -= l
	}
	// adj(K) is symmetric, as K is: its rows are its columns.
	cols := adjugate4(&k)
	best, bn := -1, 0.0
	for j := 0; j < 4; j++ {
		nn := cols[j][0]*cols[j][0] + cols[j][1]*cols[j][1] + cols[j][2]*cols[j][2] + cols[j][3]*cols[j][3]
		if nn > bn {
			best, bn = j, nn
		}
	}
	// A simple eigenvalue leaves adj(K) of rank one and norm ~ the product
	// of the gaps to the other eigenvalues; (nearly) repeated ones leave it
	// near zero.
	if best < 0 || bn < 1e-16*l*l*l*l*l*l {
		return false
	}
	*v = cols[best]
	return true
}

// adjugate4 returns the adjugate of m (its inverse times its
// determinant) from the twelve 2×2 minors of its top and bottom rows.
func adjugate4(m *[4][4]float64) [4][4]float64 {
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
	return [4][4]float64{
		{m[1][1]*c5 - m[1][2]*c4 + m[1][3]*c3, -m[0][1]*c5 + m[0][2]*c4 - m[0][3]*c3, m[3][1]*s5 - m[3][2]*s4 + m[3][3]*s3, -m[2][1]*s5 + m[2][2]*s4 - m[2][3]*s3},
		{-m[1][0]*c5 + m[1][2]*c2 - m[1][3]*c1, m[0][0]*c5 - m[0][2]*c2 + m[0][3]*c1, -m[3][0]*s5 + m[3][2]*s2 - m[3][3]*s1, m[2][0]*s5 - m[2][2]*s2 + m[2][3]*s1},
		{m[1][0]*c4 - m[1][1]*c2 + m[1][3]*c0, -m[0][0]*c4 + m[0][1]*c2 - m[0][3]*c0, m[3][0]*s4 - m[3][1]*s2 + m[3][3]*s0, -m[2][0]*s4 + m[2][1]*s2 - m[2][3]*s0},
		{-m[1][0]*c3 + m[1][1]*c1 - m[1][2]*c0, m[0][0]*c3 - m[0][1]*c1 + m[0][2]*c0, -m[3][0]*s3 + m[3][1]*s1 - m[3][2]*s0, m[2][0]*s3 - m[2][1]*s1 + m[2][2]*s0},
	}
}
