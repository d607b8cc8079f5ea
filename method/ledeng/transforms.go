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
// decomposition.
func (p *problem) updateTransforms(lambda float64, joints []joint) {
	mem := p.members()
	// Joints of each bone, as (rest position, other bone).
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
	par.For(p.f, 1, func(lo, hi int) {
		r := make([]linalg.Vec3, p.n)
		for f := lo; f < hi; f++ {
			for i := range r {
				r[i] = p.reconstruct(i, f)
			}
			fr := p.frame(f)
			mf := p.m[f*p.b : (f+1)*p.b]
			for j := 0; j < p.b; j++ {
				if len(mem[j]) == 0 && len(ends[j]) == 0 {
					continue
				}
				old := mf[j]
				var fit linalg.RigidFit
				for _, mb := range mem[j] {
					u := p.rest[mb.i]
					// Residual q_i (Eq. 6b): what bone j must supply.
					q := fr[mb.i].Sub(r[mb.i]).Add(old.Apply(u).Scale(mb.w))
					fit.Add(u, q.Scale(1/mb.w), mb.w*mb.w*invN)
				}
				for _, e := range ends[j] {
					fit.Add(e.pos, mf[e.other].Apply(e.pos), lambda)
				}
				nm := fit.Solve()
				for _, mb := range mem[j] {
					u := p.rest[mb.i]
					r[mb.i] = r[mb.i].Add(nm.Apply(u).Sub(old.Apply(u)).Scale(mb.w))
				}
				mf[j] = nm
			}
		}
	})
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
