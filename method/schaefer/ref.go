package schaefer

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// ref is a Rigid Error Function of one pose (§3.1): the 17 numbers from
// which the best rigid map of a set of triangles onto their images, and
// its error, follow. Merging two clusters adds their numbers.
//
//	a  = Σ D_i                        (areas)
//	sp = Σ D_i c(p_i),  sq = Σ D_i c(q_i)   (area-weighted centroids)
//	k  = Σ D_i (¾ c(q_i)c(p_i)ᵀ + 1/12 Σ_j q_ij p_ijᵀ)   (∫ q pᵀ)
//	e  = Σ D_i/12 (9|c(p_i)|² + 9|c(q_i)|² + Σ_j |p_ij|² + |q_ij|²)  (∫|p|² + ∫|q|²)
type ref struct {
	a      float64
	sp, sq linalg.Vec3
	k      linalg.Mat3
	e      float64
}

// faceREF returns the function of triangle p (rest) onto q (pose).
func faceREF(p, q [3]linalg.Vec3) ref {
	d := 0.5 * p[1].Sub(p[0]).Cross(p[2].Sub(p[0])).Norm()
	cp := p[0].Add(p[1]).Add(p[2]).Scale(1.0 / 3)
	cq := q[0].Add(q[1]).Add(q[2]).Scale(1.0 / 3)
	r := ref{a: d, sp: cp.Scale(d), sq: cq.Scale(d)}
	r.k = linalg.Outer(cq, cp).Scale(0.75 * d)
	e := 9*cp.Norm2() + 9*cq.Norm2()
	for j := 0; j < 3; j++ {
		r.k = r.k.Add(linalg.Outer(q[j], p[j]).Scale(d / 12))
		e += p[j].Norm2() + q[j].Norm2()
	}
	r.e = e * d / 12
	return r
}

func (r *ref) add(o *ref) {
	r.a += o.a
	r.sp = r.sp.Add(o.sp)
	r.sq = r.sq.Add(o.sq)
	r.k = r.k.Add(o.k)
	r.e += o.e
}

// centered returns M = ∫ q̂ p̂ᵀ, the covariance about the centroids.
func (r *ref) centered() linalg.Mat3 {
	if r.a == 0 {
		return linalg.Mat3{}
	}
	return r.k.Add(linalg.Outer(r.sq, r.sp).Scale(-1 / r.a))
}

// fitError returns min over rigid (R, T) of ∫ |R p + T − q|²: the
// centered second moments minus twice the largest trace tr(RᵀM), which
// linalg.MaxRotationTrace finds without the rotation.
func (r *ref) fitError() float64 {
	if r.a == 0 {
		return 0
	}
	e := r.e - (r.sp.Norm2()+r.sq.Norm2())/r.a - 2*linalg.MaxRotationTrace(r.centered())
	return math.Max(e, 0)
}

// transform returns the best rigid transform: Horn's rotation of M and
// T = q̄ − R p̄.
func (r *ref) transform() linalg.Affine {
	if r.a == 0 {
		return linalg.IdentityAffine()
	}
	rot := linalg.BestRotation(r.centered()).Mat3()
	pb, qb := r.sp.Scale(1/r.a), r.sq.Scale(1/r.a)
	return linalg.Affine{M: rot, T: qb.Sub(rot.MulVec(pb))}
}

// errorUnder returns ∫ |R p + T − q|² for a given transform.
func (r *ref) errorUnder(t linalg.Affine) float64 {
	var tr float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			tr += t.M[i][j] * r.k[i][j]
		}
	}
	e := r.e + r.a*t.T.Norm2() + 2*t.T.Dot(t.M.MulVec(r.sp)) - 2*t.T.Dot(r.sq) - 2*tr
	return math.Max(e, 0)
}
