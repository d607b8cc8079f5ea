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
	_, v := SymEigen4(n)
	q := Quat{v[0][0], v[1][0], v[2][0], v[3][0]}
	if q.W < 0 {
		q = Quat{-q.W, -q.X, -q.Y, -q.Z}
	}
	return q.Normalize()
}
