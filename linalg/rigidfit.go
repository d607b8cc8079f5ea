package linalg

// RigidFit accumulates weighted point pairs (x → y) and solves for the
// rigid transform that best maps the x onto the y in the weighted
// least-squares sense (weighted absolute orientation, Kabsch/Horn). The
// zero value is empty and ready to use.
type RigidFit struct {
	W      float64 // Σ w
	SX, SY Vec3    // Σ w·x, Σ w·y
	SYX    Mat3    // Σ w·y·xᵀ
}

// Add accumulates the pair x → y with weight w.
func (r *RigidFit) Add(x, y Vec3, w float64) {
	r.W += w
	r.SX = r.SX.Add(x.Scale(w))
	r.SY = r.SY.Add(y.Scale(w))
	for i := 0; i < 3; i++ {
		wy := w * y[i]
		r.SYX[i][0] += wy * x[0]
		r.SYX[i][1] += wy * x[1]
		r.SYX[i][2] += wy * x[2]
	}
}

// Merge adds the sums of o.
func (r *RigidFit) Merge(o *RigidFit) {
	r.W += o.W
	r.SX = r.SX.Add(o.SX)
	r.SY = r.SY.Add(o.SY)
	r.SYX = r.SYX.Add(o.SYX)
}

// Solve returns the best rigid transform, or the identity when no weight
// was added. Degenerate (planar, collinear) point sets still get a rotation,
// chosen by Horn's method.
func (r *RigidFit) Solve() Affine {
	if r.W <= 0 {
		return IdentityAffine()
	}
	cx, cy := r.SX.Scale(1/r.W), r.SY.Scale(1/r.W)
	// Centered covariance Σ w (y-ȳ)(x-x̄)ᵀ = Σ w y xᵀ − W ȳ x̄ᵀ.
	cov := r.SYX.Add(Outer(cy, cx).Scale(-r.W))
	q := BestRotation(cov)
	m := q.Mat3()
	return Affine{M: m, T: cy.Sub(m.MulVec(cx))}
}
