package ledeng

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// joint is an edge of the skeleton tree S: bones a and b share a joint
// whose rest position is pos (their center of rotation C_ab).
type joint struct {
	a, b int32
	pos  linalg.Vec3
}

// member is a vertex a bone moves, with its weight.
type member struct {
	i int32
	w float64
}

// members lists, per bone, the vertices with non-zero weight on it.
func (p *problem) members() [][]member {
	out := make([][]member, p.b)
	for i := 0; i < p.n; i++ {
		for k := 0; k < maxK; k++ {
			if j := p.wb[i*maxK+k]; j >= 0 {
				out[j] = append(out[j], member{int32(i), p.ww[i*maxK+k]})
			}
		}
	}
	return out
}

// updateTransforms re-fits every bone transform in every frame (§6.2):
// bones one by one in a fixed order, each by weighted absolute orientation
// between the rest positions and the residual its vertices leave
// (Eq. 6b), plus, with weight λ, its joints mapped to where the
// neighbouring bones take them (Eq. 6c). Frames are independent and run
// in parallel. λ = 0 gives the unconstrained update of skinning
// decomposition. It returns the data term's sum of squares after the
// update.
func (p *problem) updateTransforms(lambda float64, joints []joint) float64 {
	mem := p.members()
	type end struct {
		pos   linalg.Vec3
		other int32
	}
	ends := make([][]end, p.b)
	if lambda > 0 {
		for _, jt := range joints {
			ends[jt.a] = append(ends[jt.a], end{jt.pos, jt.b})
			ends[jt.b] = append(ends[jt.b], end{jt.pos, jt.a})
		}
	}
	invN := 1 / float64(p.n)
	// Frame-independent sums of each bone's vertex term: with weights
	// a_i = w_i²/N, points u_i and targets q_i/w_i, the fit needs Σa, Σa·u,
	// and, through q_i = e_i + w_i M_old u_i (e_i the frame's residual),
	// Σ a·u uᵀ to fold the old transform in.
	type restSum struct {
		w   float64
		u   linalg.Vec3
		uut linalg.Mat3
	}
	rs := make([]restSum, p.b)
	for j := range mem {
		for _, mb := range mem[j] {
			a := mb.w * mb.w * invN
			u := p.rest[mb.i]
			rs[j].w += a
			rs[j].u = rs[j].u.Add(u.Scale(a))
			rs[j].uut = rs[j].uut.Add(linalg.Outer(u, u).Scale(a))
		}
	}
	sse := make([]float64, p.f)
	par.For(p.f, 1, func(lo, hi int) {
		e := make([]linalg.Vec3, p.n) // residual v − reconstruction
		for f := lo; f < hi; f++ {
			fr := p.frame(f)
			for i := range e {
				e[i] = fr[i].Sub(p.reconstruct(i, f))
			}
			mf := p.m[f*p.b : (f+1)*p.b]
			for j := 0; j < p.b; j++ {
				if len(mem[j]) == 0 && len(ends[j]) == 0 {
					continue
				}
				old := mf[j]
				// Σ a·y = Σ (w/N) e_i + M_old-part; Σ a·y·uᵀ likewise.
				var sy linalg.Vec3
				var syu linalg.Mat3
				for _, mb := range mem[j] {
					c := mb.w * invN
					ei := e[mb.i].Scale(c)
					u := p.rest[mb.i]
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
					u := p.rest[mb.i]
					e[mb.i] = e[mb.i].Sub(dm.MulVec(u).Add(dt).Scale(mb.w))
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

// sse returns Σ_f Σ_i |reconstruction − input|², the unnormalized data
// term of Eq. 3b, summed in a fixed order.
func (p *problem) sse() float64 {
	return par.Sum(p.f, 1, func(lo, hi int) float64 {
		var s float64
		for f := lo; f < hi; f++ {
			fr := p.frame(f)
			for i := 0; i < p.n; i++ {
				s += p.reconstruct(i, f).Sub(fr[i]).Norm2()
			}
		}
		return s
	})
}
