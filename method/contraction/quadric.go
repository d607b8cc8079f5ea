package contraction

import "github.com/meshrig/meshrig/linalg"

// quadric is a symmetric 4×4 matrix Q, stored as its upper triangle
// (q00 q01 q02 q03 q11 q12 q13 q22 q23 q33), with pᵀQp for p = (x, 1)
// a sum of squared distances from x to lines (Au et al. 2008 §4, the
// edge-based variant of Garland & Heckbert's QEM: the contracted mesh's
// faces have no area, so its edges carry the error).
type quadric [10]float64

// lineQuadric returns KᵀK for the line through a and b, where
// K = [[a]ₓ | −a×a₀] maps (x, 1) to u×(x − a₀), u the unit direction, so
// that (x, 1)ᵀKᵀK(x, 1) = |u×(x − a₀)|² is the squared distance of x from
// the line. A degenerate segment gives the zero quadric.
func lineQuadric(a, b linalg.Vec3) quadric {
	d := b.Sub(a)
	l := d.Norm()
	if !(l > 1e-12) {
		return quadric{}
	}
	u := d.Scale(1 / l)
	w := u.Cross(a)
	k := [3][4]float64{
		{0, -u[2], u[1], -w[0]},
		{u[2], 0, -u[0], -w[1]},
		{-u[1], u[0], 0, -w[2]},
	}
	var q quadric
	idx := 0
	for r := 0; r < 4; r++ {
		for c := r; c < 4; c++ {
			q[idx] = k[0][r]*k[0][c] + k[1][r]*k[1][c] + k[2][r]*k[2][c]
			idx++
		}
	}
	return q
}

func (q *quadric) add(o *quadric) {
	for k := range q {
		q[k] += o[k]
	}
}

// eval returns (x, 1)ᵀQ(x, 1).
func (q *quadric) eval(x linalg.Vec3) float64 {
	return q[0]*x[0]*x[0] + q[4]*x[1]*x[1] + q[7]*x[2]*x[2] + q[9] +
		2*(q[1]*x[0]*x[1]+q[2]*x[0]*x[2]+q[5]*x[1]*x[2]) +
		2*(q[3]*x[0]+q[6]*x[1]+q[8]*x[2])
}

// planeQuadric returns w·ppᵀ for the plane p = (n, −n·a) through a with
// unit normal n: (x, 1)ᵀQ(x, 1) is w times the squared distance of x from
// the plane (Garland & Heckbert 1997).
func planeQuadric(n, a linalg.Vec3, w float64) quadric {
	p := [4]float64{n[0], n[1], n[2], -n.Dot(a)}
	var q quadric
	idx := 0
	for r := 0; r < 4; r++ {
		for c := r; c < 4; c++ {
			q[idx] = w * p[r] * p[c]
			idx++
		}
	}
	return q
}
