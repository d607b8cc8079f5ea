package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// Members lists, per bone, the vertices with non-zero weight on it.
func (p *Model) Members() [][]Member {
	out := make([][]Member, p.B)
	for i := 0; i < p.N; i++ {
		for k := 0; k < MaxK; k++ {
			if j := p.WB[i*MaxK+k]; j >= 0 {
				out[j] = append(out[j], Member{int32(i), p.WW[i*MaxK+k]})
			}
		}
	}
	return out
}

// UpdateTransforms re-fits every bone transform in every frame (§6.2):
// bones one by one in a fixed order, each by weighted absolute orientation
// between the rest positions and the residual its vertices leave
// (Eq. 6b), plus, with weight λ, its joints mapped to where the
// neighbouring bones take them (Eq. 6c). Frames are independent and run
// in parallel. λ = 0 gives the unconstrained update of skinning
// decomposition. It returns the data term's sum of squares after the
// update.
func (p *Model) UpdateTransforms(lambda float64, joints []Joint) float64 {
	mem := p.Members()
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
	// Frame-independent sums of each bone's vertex term: with weights
	// a_i = w_i²/N, points u_i and targets q_i/w_i, the fit needs Σa, Σa·u,
	// and, through q_i = e_i + w_i M_old u_i (e_i the frame's residual),
	// Σ a·u uᵀ to fold the old transform in.
	type restSum struct {
		w   float64
		u   linalg.Vec3
		uut linalg.Mat3
	}
	rs := make([]restSum, p.B)
	for j := range mem {
		for _, mb := range mem[j] {
			a := mb.W * mb.W * invN
			u := p.Rest[mb.I]
			rs[j].w += a
			rs[j].u = rs[j].u.Add(u.Scale(a))
			rs[j].uut = rs[j].uut.Add(linalg.Outer(u, u).Scale(a))
		}
	}
	sse := make([]float64, p.F)
	par.For(p.F, 1, func(lo, hi int) {
		e := make([]linalg.Vec3, p.N) // residual v − reconstruction
		for f := lo; f < hi; f++ {
			fr := p.Frame(f)
			for i := range e {
				e[i] = fr[i].Sub(p.Reconstruct(i, f))
			}
			mf := p.M[f*p.B : (f+1)*p.B]
			for j := 0; j < p.B; j++ {
				if len(mem[j]) == 0 && len(ends[j]) == 0 {
					continue
				}
				old := mf[j]
				// Σ a·y = Σ (w/N) e_i + M_old-part; Σ a·y·uᵀ likewise.
				var sy linalg.Vec3
				var syu linalg.Mat3
				for _, mb := range mem[j] {
					c := mb.W * invN
					ei := e[mb.I].Scale(c)
					u := p.Rest[mb.I]
					sy = sy.Add(ei)
					for r := 0; r < 3; r++ {
						syu[r][0] += ei[r] * u[0]
						syu[r][1] += ei[r] * u[1]
						syu[r][2] += ei[r] * u[2]
					}
				}
				r := &rs[j]
				fit := linalg.RigidFit{
					W:   r.w,
					SX:  r.u,
					SY:  sy.Add(old.M.MulVec(r.u)).Add(old.T.Scale(r.w)),
					SYX: syu.Add(old.M.Mul(r.uut)).Add(linalg.Outer(old.T, r.u)),
				}
				for _, en := range ends[j] {
					fit.Add(en.pos, mf[en.other].Apply(en.pos), lambda)
				}
				nm := fit.Solve()
				dm := nm.M.Add(old.M.Scale(-1))
				dt := nm.T.Sub(old.T)
				for _, mb := range mem[j] {
					u := p.Rest[mb.I]
					e[mb.I] = e[mb.I].Sub(dm.MulVec(u).Add(dt).Scale(mb.W))
				}
				mf[j] = nm
			}
			var s float64
			for i := range e {
				s += e[i].Norm2()
			}
			sse[f] = s
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
	return par.Sum(p.F, 1, func(lo, hi int) float64 {
		var s float64
		for f := lo; f < hi; f++ {
			fr := p.Frame(f)
			for i := 0; i < p.N; i++ {
				s += p.Reconstruct(i, f).Sub(fr[i]).Norm2()
			}
		}
		return s
	})
}
