package skinning

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// newtonScratch is one worker's system for newtonFrame: the n×n
// Gauss–Newton matrix h (row-major, its upper triangle), its damped copy
// sys (factored in place), the right-hand side g and the step x.
type newtonScratch struct {
	n      int
	h, sys []float64
	g, x   []float64
	try    []linalg.Mat3
	ra     []linalg.Vec3 // R_a S_a
}

func newNewtonScratch(b int) *newtonScratch {
	n := 3*b + 3
	return &newtonScratch{n: n, h: make([]float64, n*n), sys: make([]float64, n*n), g: make([]float64, n), x: make([]float64, n),
		try: make([]linalg.Mat3, b), ra: make([]linalg.Vec3, b)}
}

// solve factors h damped by μ times each 3×3 diagonal block's mean
// diagonal, on all three of its axes (LAPACK's Cholesky, without the
// condition estimate gonum's mat.Cholesky adds, half its cost here), and
// solves for the step into x; false when the damped matrix is not
// positive definite. Damping each axis by its own diagonal entry (μ·diag
// h) is not rotation-invariant: a bone whose levers are collinear (one
// child, no vertices of its own) has its lever axis as a null direction
// of h, and the step then turned it about that axis by radians, every try
// rejected and the frame left where the sweeps put it (the cow at 11
// bones: 5 frames; now 1, RMSE% 1.4130 → 1.4116).
func (s *newtonScratch) solve(mu float64) bool {
	n := s.n
	copy(s.sys, s.h)
	for b := 0; b < n; b += 3 {
		m := (s.h[b*n+b] + s.h[(b+1)*n+b+1] + s.h[(b+2)*n+b+2]) / 3
		for i := b; i < b+3; i++ {
			s.sys[i*n+i] += mu * max(m, 1e-12)
		}
	}
	t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: s.sys})
	if !ok {
		return false
	}
	copy(s.x, s.g)
	lapack64.Potrs(t, blas64.General{Rows: n, Cols: 1, Stride: 1, Data: s.x})
	for _, v := range s.x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// axial is Σ u×w for A = Σ w uᵀ.
func axial(a linalg.Mat3) linalg.Vec3 {
	return linalg.Vec3{a[2][1] - a[1][2], a[0][2] - a[2][0], a[1][0] - a[0][1]}
}

// newtonFrame takes Levenberg–Marquardt steps on one frame's global
// rotations rot and root position p, every bone's rotation and the root
// position at once: E = Σ_i ‖p + Σ_a R_a z_ia − x_i‖², R_a ← exp([ω_a]×)R_a,
// p ← p + δ. The Gauss–Newton system comes from the lever sums
// (y_ia = R_a z_ia): H_ab = tr(M)I − M, M = R_b C_ba R_aᵀ = Σ_i y_ib y_iaᵀ;
// H_pa = −[R_a S_a]×, H_pp = N·I; g_a = Σ_i y_ia × r_i, g_p = Σ_i r_i.
// Block coordinate descent alone converges slowly where bones are
// coupled (a parent and child sharing vertices). It returns the energy.
func (ls *leverSums) newtonFrame(rot, v []linalg.Mat3, p *linalg.Vec3, vsum linalg.Vec3, vv, n float64, steps int, s *newtonScratch) float64 {
	nb := len(rot)
	e := vv + ls.quadratic(rot, v, *p, vsum, n)
	mu := 1e-6
	for it := 0; it < steps; it++ {
		ls.newtonSystem(rot, v, *p, vsum, n, s)
		improved := false
		for try := 0; try < 8; try++ {
			if !s.solve(mu) {
				mu *= 10
				continue
			}
			for a := 0; a < nb; a++ {
				w := linalg.Vec3{s.x[3*a], s.x[3*a+1], s.x[3*a+2]}
				if ang := w.Norm(); ang > 0 {
					s.try[a] = linalg.QuatFromAxisAngle(w, ang).Mat3().Mul(rot[a])
				} else {
					s.try[a] = rot[a]
				}
			}
			np := p.Add(linalg.Vec3{s.x[3*nb], s.x[3*nb+1], s.x[3*nb+2]})
			ne := vv + ls.quadratic(s.try, v, np, vsum, n)
			if ne < e {
				gain := e - ne
				copy(rot, s.try)
				*p = np
				e = ne
				mu = max(mu/3, 1e-9)
				improved = true
				if gain <= newtonGain*e {
					return e
				}
				break
			}
			mu *= 4
		}
		if !improved {
			break
		}
	}
	return e
}

// newtonSystem fills s.h with the Gauss–Newton matrix and s.g with the
// negative gradient of the frame's error at rot, p (see newtonFrame).
func (ls *leverSums) newtonSystem(rot, v []linalg.Mat3, p, vsum linalg.Vec3, n float64, s *newtonScratch) {
	nb := len(rot)
	clear(s.h)
	gp := p.Scale(n).Sub(vsum)
	for a := 0; a < nb; a++ {
		ra := rot[a]
		s.ra[a] = ra.MulVec(ls.sum[a])
		gp = gp.Add(s.ra[a])
		s.setBlock(a, a, hessBlock(ra.Mul(ls.self[a]).Mul(ra.T())))
		g := s.ra[a].Cross(p).Sub(axial(v[a].Mul(ra.T())))
		for _, pr := range ls.pairs[ls.pstart[a]:ls.pstart[a+1]] {
			mb := rot[pr.b].Mul(pr.c).Mul(ra.T())
			g = g.Add(axial(mb))
			if int(pr.b) > a {
				s.setBlock(a, int(pr.b), hessBlock(mb))
			}
		}
		for k := 0; k < 3; k++ {
			s.g[3*a+k] = -g[k]
		}
		s.setBlock(a, nb, skew(s.ra[a])) // H_ap = [R_a S_a]×
	}
	for k := 0; k < 3; k++ {
		s.g[3*nb+k] = -gp[k]
		s.h[(3*nb+k)*s.n+3*nb+k] = n
	}
}

// hessBlock is tr(M)I − M.
func hessBlock(m linalg.Mat3) linalg.Mat3 {
	t := m[0][0] + m[1][1] + m[2][2]
	var r linalg.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = -m[i][j]
		}
		r[i][i] += t
	}
	return r
}

func skew(u linalg.Vec3) linalg.Mat3 {
	return linalg.Mat3{{0, -u[2], u[1]}, {u[2], 0, -u[0]}, {-u[1], u[0], 0}}
}

// setBlock sets block (a, b), a ≤ b, of the upper triangle of s.h (3×3
// blocks).
func (s *newtonScratch) setBlock(a, b int, m linalg.Mat3) {
	for i := 0; i < 3; i++ {
		row := s.h[(3*a+i)*s.n:]
		for j := 0; j < 3; j++ {
			if a == b && j < i {
				continue
			}
			row[3*b+j] = m[i][j]
		}
	}
}
