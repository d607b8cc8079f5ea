package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// rotationTol ends a frame's sweeps once no global rotation moved more
// than this (Frobenius norm of the change): far below what the exported
// file resolves.
const rotationTol = 1e-9

// FitRotations refines the bone rotations with the skeleton enforced
// exactly: per frame, block coordinate descent over each bone's global
// rotation (root to leaves; each step is a rotation-only Procrustes
// problem about the bone's head, exact for the whole subtree it carries),
// then the root translation, for at most sweeps sweeps (fewer when the
// rotations settle). The transforms p.M must already be skeletal (see
// Constrain); they stay so. It returns the data term (Eq. 3b, a sum of
// squares over vertices and frames) of the result, from the same sums.
func (p *Model) FitRotations(h Hierarchy, sweeps int) float64 {
	ls := p.newLeverSums(h)
	root := h.Order[0]
	invN := 1 / float64(p.N)
	sse := make([]float64, p.F)
	scratch := newFrameScratch()
	par.For(p.F, 1, func(lo, hi int) {
		buf := scratch.get()
		defer func() { scratch.put(buf) }()
		rot := make([]linalg.Mat3, p.B)
		v := make([]linalg.Mat3, p.B)
		pos := make([]linalg.Vec3, p.B)
		for f := lo; f < hi; f++ {
			fr := p.FrameInto(buf, f)
			buf = fr
			mf := p.M[f*p.B : (f+1)*p.B]
			var vsum linalg.Vec3
			var vv float64
			for _, x := range fr {
				vsum = vsum.Add(x)
				vv += x.Norm2()
			}
			for a := 0; a < p.B; a++ {
				var m linalg.Mat3
				for r := ls.start[a]; r < ls.start[a+1]; r++ {
					x, z := fr[ls.idx[r]], ls.arm[r]
					for q := 0; q < 3; q++ {
						m[q][0] += x[q] * z[0]
						m[q][1] += x[q] * z[1]
						m[q][2] += x[q] * z[2]
					}
				}
				v[a] = m
				rot[a] = mf[a].M
			}
			rootPos := mf[root].Apply(h.Head[root])
			for s := 0; s < sweeps; s++ {
				var moved float64
				for _, a := range h.Order {
					// M_a = V_a − p S_aᵀ − Σ_{b≠a} R_b C_ba, C_ba = C_abᵀ.
					m := v[a].Sub(linalg.Outer(rootPos, ls.sum[a]))
					for _, pr := range ls.pairs[ls.pstart[a]:ls.pstart[a+1]] {
						m = m.Sub(rot[pr.b].Mul(pr.c))
					}
					nr := linalg.BestRotation(m).Mat3()
					moved = max(moved, frobenius2(nr.Sub(rot[a])))
					rot[a] = nr
				}
				// Root: weights sum to one, so p shifts every vertex alike:
				// p = (Σ_i v_i − Σ_a R_a S_a)/N.
				np := vsum
				for a := 0; a < p.B; a++ {
					np = np.Sub(rot[a].MulVec(ls.sum[a]))
				}
				rootPos = np.Scale(invN)
				if moved < rotationTol*rotationTol {
					break
				}
			}
			sse[f] = max(0, vv+ls.quadratic(rot, v, rootPos, vsum, float64(p.N)))
			// Forward kinematics back to skin transforms.
			for _, b := range h.Order {
				if pb := h.Parent[b]; pb < 0 {
					pos[b] = rootPos
				} else {
					pos[b] = pos[pb].Add(rot[pb].MulVec(h.Head[b].Sub(h.Head[pb])))
				}
				mf[b] = linalg.Affine{M: rot[b], T: pos[b].Sub(rot[b].MulVec(h.Head[b]))}
			}
		}
	})
	var total float64
	for _, e := range sse {
		total += e
	}
	return total
}
