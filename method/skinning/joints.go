package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"gonum.org/v1/gonum/mat"
)

// FitJoints re-solves the rest positions of all joints but the root's, and
// the root position in every frame, for the skeletal rig with its current
// global bone rotations and weights. With rotations fixed the rig is
// linear in the joints: vertex i at frame f is
//
//	v̂ = Σ_k w_ik R_k u_i + Σ_b s_ib (R_parent(b) − R_b) h_b + p_f,
//
// s_ib being i's total weight on b's subtree, so this is one small linear
// least-squares problem (3 unknowns per Joint) whose normal matrix sums
// per-pair terms over frames. It keeps the joints from where the Joint
// constraints of §6.2 left them only where the data improves on them; a
// small ridge toward the current position keeps joints that the motion
// cannot locate (a bone that never bends) where they were.
func (p *Model) FitJoints(h *Hierarchy) {
	nb := p.B
	root := h.Order[0]
	// Subtree weights s_ib, sparse per vertex.
	type sw struct {
		b int32
		s float64
	}
	sub := make([][]sw, p.N)
	acc := make([]float64, nb)
	for i := 0; i < p.N; i++ {
		var touched []int32
		for k := 0; k < MaxK; k++ {
			j := p.WB[i*MaxK+k]
			if j < 0 {
				continue
			}
			for a := j; a >= 0; a = h.Parent[a] {
				if acc[a] == 0 {
					touched = append(touched, a)
				}
				acc[a] += p.WW[i*MaxK+k]
			}
		}
		for _, a := range touched {
			if a != root {
				sub[i] = append(sub[i], sw{a, acc[a]})
			}
			acc[a] = 0
		}
	}
	// S_bc = Σ_i s_ib s_ic − N s̄_b s̄_c: frame-independent Gram matrix of
	// the centered subtree weights (the root position is eliminated).
	mean := make([]float64, nb)
	gram := make([]float64, nb*nb)
	for i := range sub {
		for _, x := range sub[i] {
			mean[x.b] += x.s
			for _, y := range sub[i] {
				gram[int(x.b)*nb+int(y.b)] += x.s * y.s
			}
		}
	}
	for b := range mean {
		mean[b] /= float64(p.N)
	}
	for b := 0; b < nb; b++ {
		for c := 0; c < nb; c++ {
			gram[b*nb+c] -= float64(p.N) * mean[b] * mean[c]
		}
	}
	// D_b^f = R_parent(b)^f − R_b^f, and per frame the centered target
	// t_b^f = Σ_i s_ib (y_i − ȳ), y_i = v_i − Σ_k w_ik R_k u_i, from sums:
	// t_b = Σ_i s_ib v_i − Σ_k R_k G_bk − σ_b ȳ with the frame-independent
	// G_bk = Σ_i s_ib w_ik u_i, σ_b = Σ_i s_ib, and
	// ȳ = (Σ_i v_i − Σ_k R_k U_k)/N, U_k = Σ_i w_ik u_i.
	gbk := make([]linalg.Vec3, nb*nb)
	uk := make([]linalg.Vec3, nb)
	for i := range sub {
		u := p.Rest[i]
		for k := 0; k < MaxK; k++ {
			j := p.WB[i*MaxK+k]
			if j < 0 {
				continue
			}
			wu := u.Scale(p.WW[i*MaxK+k])
			uk[j] = uk[j].Add(wu)
			for _, x := range sub[i] {
				gbk[int(x.b)*nb+int(j)] = gbk[int(x.b)*nb+int(j)].Add(wu.Scale(x.s))
			}
		}
	}
	gIdx := make([][]int32, nb) // k with G_bk ≠ 0, per b
	for b := 0; b < nb; b++ {
		for k := 0; k < nb; k++ {
			if gbk[b*nb+k] != (linalg.Vec3{}) {
				gIdx[b] = append(gIdx[b], int32(k))
			}
		}
	}
	d := make([]linalg.Mat3, p.F*nb)
	t := make([]linalg.Vec3, p.F*nb)
	ybar := make([]linalg.Vec3, p.F)
	scratch := newScratch[[]linalg.Vec3]()
	par.For(p.F, 1, func(lo, hi int) {
		buf := scratch.get()
		defer func() { scratch.put(buf) }()
		pb := make([]linalg.Vec3, nb)
		for f := lo; f < hi; f++ {
			mf := p.M[f*nb : (f+1)*nb]
			for b := 0; b < nb; b++ {
				if pb := h.Parent[b]; pb >= 0 {
					d[f*nb+b] = mf[pb].M.Sub(mf[b].M)
				}
			}
			fr := p.FrameInto(buf, f)
			buf = fr
			clear(pb)
			var vs linalg.Vec3
			for i, v := range fr {
				vs = vs.Add(v)
				for _, x := range sub[i] {
					pb[x.b] = pb[x.b].Add(v.Scale(x.s))
				}
			}
			for k := 0; k < nb; k++ {
				vs = vs.Sub(mf[k].M.MulVec(uk[k]))
			}
			yb := vs.Scale(1 / float64(p.N))
			ybar[f] = yb
			for b := 0; b < nb; b++ {
				tb := pb[b].Sub(yb.Scale(float64(p.N) * mean[b]))
				for _, k := range gIdx[b] {
					tb = tb.Sub(mf[k].M.MulVec(gbk[b*nb+int(k)]))
				}
				t[f*nb+b] = tb
			}
		}
	})
	// Normal equations over the 3(B) Joint coordinates (root's pinned).
	n3 := 3 * nb
	a := mat.NewSymDense(n3, nil)
	rhs := mat.NewVecDense(n3, nil)
	for b := 0; b < nb; b++ {
		for c := b; c < nb; c++ {
			g := gram[b*nb+c]
			if g == 0 {
				continue
			}
			var blk linalg.Mat3
			for f := 0; f < p.F; f++ {
				blk = blk.Add(d[f*nb+b].T().Mul(d[f*nb+c]))
			}
			for r := 0; r < 3; r++ {
				for q := 0; q < 3; q++ {
					if b == c && q < r {
						continue
					}
					a.SetSym(3*b+r, 3*c+q, a.At(3*b+r, 3*c+q)+g*blk[r][q])
				}
			}
		}
		var v linalg.Vec3
		for f := 0; f < p.F; f++ {
			v = v.Add(d[f*nb+b].T().MulVec(t[f*nb+b]))
		}
		for r := 0; r < 3; r++ {
			rhs.SetVec(3*b+r, v[r])
		}
	}
	// Ridge toward the prior joints, scaled like the γ = 1e-2·F of the
	// center-of-rotation fit (§5): a hinge leaves its Joint free along
	// the axis, and there the prior decides.
	var tr float64
	for k := 0; k < n3; k++ {
		tr += a.At(k, k)
	}
	floor := 1e-9*tr/float64(n3) + 1e-12
	for b := 0; b < nb; b++ {
		for r := 0; r < 3; r++ {
			k := 3*b + r
			if int32(b) == root {
				a.SetSym(k, k, 1)
				for q := 0; q < n3; q++ {
					if q != k {
						a.SetSym(k, q, 0)
					}
				}
				rhs.SetVec(k, h.Head[b][r])
				continue
			}
			mu := 1e-3*float64(p.F)*gram[b*nb+b] + floor
			a.SetSym(k, k, a.At(k, k)+mu)
			rhs.SetVec(k, rhs.AtVec(k)+mu*h.Prior[b][r])
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(a) {
		return
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, rhs); err != nil {
		return
	}
	for b := 0; b < nb; b++ {
		h.Head[b] = linalg.Vec3{x.AtVec(3 * b), x.AtVec(3*b + 1), x.AtVec(3*b + 2)}
	}
	// Root position per frame, then skin transforms by forward kinematics.
	par.For(p.F, 1, func(lo, hi int) {
		pos := make([]linalg.Vec3, nb)
		for f := lo; f < hi; f++ {
			mf := p.M[f*nb : (f+1)*nb]
			var off linalg.Vec3
			for b := 0; b < nb; b++ {
				if int32(b) != root {
					off = off.Add(d[f*nb+b].MulVec(h.Head[b]).Scale(mean[b]))
				}
			}
			// ȳ = R_root·(−h_root)… folded: mean prediction must equal ȳ.
			rr := mf[root].M
			rootPos := ybar[f].Sub(off).Add(rr.MulVec(h.Head[root]))
			for _, b := range h.Order {
				if pb := h.Parent[b]; pb < 0 {
					pos[b] = rootPos
				} else {
					pos[b] = pos[pb].Add(mf[pb].M.MulVec(h.Head[b].Sub(h.Head[pb])))
				}
				mf[b] = linalg.Affine{M: mf[b].M, T: pos[b].Sub(mf[b].M.MulVec(h.Head[b]))}
			}
		}
	})
}
