package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// UpdateTransforms re-fits every bone transform in every frame (§6.2):
// bones one by one in a fixed order, each by weighted absolute orientation
// between the rest positions and the residual its vertices leave
// (Eq. 6b), plus, with weight λ, its joints mapped to where the
// neighbouring bones take them (Eq. 6c). Frames are independent and run
// in parallel. λ = 0 gives the unconstrained update of skinning
// decomposition. It returns the data term's sum of squares after the
// update.
func (p *Model) UpdateTransforms(lambda float64, joints []Joint) float64 {
	bs := p.newBlendSums()
	type end struct {
		pos   linalg.Vec3
		other int32
	}
	ends := make([][]end, p.B)
	if lambda > 0 {
		for _, jt := range joints {
			ends[jt.A] = append(ends[jt.A], end{jt.Pos, jt.B})
			ends[jt.B] = append(ends[jt.B], end{jt.Pos, jt.A})
		}
	}
	invN := 1 / float64(p.N)
	sse := make([]float64, p.F)
	scratch := newScratch[[]linalg.Vec3]()
	par.For(p.F, 1, func(lo, hi int) {
		buf := scratch.get()
		defer func() { scratch.put(buf) }()
		vu := make([]linalg.Mat3, p.B) // V_j = Σ_i w_ij v_i u_iᵀ
		vs := make([]linalg.Vec3, p.B) // v̄_j = Σ_i w_ij v_i
		for f := lo; f < hi; f++ {
			fr := p.FrameInto(buf, f)
			buf = fr
			clear(vu)
			clear(vs)
			var vv float64
			for i, v := range fr {
				vv += v.Norm2()
				u := p.Rest[i]
				for x := 0; x < MaxK; x++ {
					j := p.WB[i*MaxK+x]
					if j < 0 {
						continue
					}
					wv := v.Scale(p.WW[i*MaxK+x])
					vs[j] = vs[j].Add(wv)
					addOuter(&vu[j], wv, u)
				}
			}
			mf := p.M[f*p.B : (f+1)*p.B]
			for j := 0; j < p.B; j++ {
				self := &bs.self[j]
				if self.c == 0 && len(ends[j]) == 0 {
					continue
				}
				// Residual sums of Eq. 6b: the data the other bones leave.
				sy, syx := vs[j], vu[j]
				for _, pr := range bs.pairs[bs.start[j]:bs.start[j+1]] {
					mk := mf[pr.k]
					sy = sy.Sub(mk.M.MulVec(pr.b).Add(mk.T.Scale(pr.c)))
					syx = syx.Sub(mk.M.Mul(pr.a).Add(linalg.Outer(mk.T, pr.b)))
				}
				fit := linalg.RigidFit{
					W:   self.c * invN,
					SX:  self.b.Scale(invN),
					SY:  sy.Scale(invN),
					SYX: syx.Scale(invN),
				}
				for _, en := range ends[j] {
					fit.Add(en.pos, mf[en.other].Apply(en.pos), lambda)
				}
				mf[j] = fit.Solve()
			}
			sse[f] = max(0, vv+bs.quadratic(mf, vu, vs))
		}
	})
	var total float64
	for _, s := range sse {
		total += s
	}
	return total
}

// SSE returns Σ_f Σ_i |reconstruction − input|², the unnormalized data
// term of Eq. 3b, summed in a fixed order.
func (p *Model) SSE() float64 {
	scratch := newScratch[[]linalg.Vec3]()
	return par.Sum(p.F, 1, func(lo, hi int) float64 {
		buf := scratch.get()
		defer func() { scratch.put(buf) }()
		var s float64
		for f := lo; f < hi; f++ {
			fr := p.FrameInto(buf, f)
			buf = fr
			for i := 0; i < p.N; i++ {
				s += p.Reconstruct(i, f).Sub(fr[i]).Norm2()
			}
		}
		return s
	})
}
