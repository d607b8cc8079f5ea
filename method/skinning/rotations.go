package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// lever is one vertex's lever arm about a bone's head: how the vertex
// moves when the bone's global rotation changes with every other global
// rotation held still. A vertex moves with bone a through its own weight
// on a (rotating about a's head) and through its weight on a's
// descendants, whose heads a's rotation carries along.
type lever struct {
	i int32
	z linalg.Vec3
}

// levers returns, per bone a, the vertices a moves with their arms
//
//	z_i = w_ia (u_i − h_a) + Σ_{k below a} w_ik (h_c(k) − h_a),
//
// c(k) being the child of a on the path down to k.
func (p *Model) levers(h Hierarchy) [][]lever {
	out := make([][]lever, p.B)
	acc := make(map[int32]linalg.Vec3)
	for i := 0; i < p.N; i++ {
		clear(acc)
		for k := 0; k < MaxK; k++ {
			j := p.WB[i*MaxK+k]
			if j < 0 {
				continue
			}
			w := p.WW[i*MaxK+k]
			acc[j] = acc[j].Add(p.Rest[i].Sub(h.Head[j]).Scale(w))
			for c, a := j, h.Parent[j]; a >= 0; c, a = a, h.Parent[a] {
				acc[a] = acc[a].Add(h.Head[c].Sub(h.Head[a]).Scale(w))
			}
		}
		// Append in bone order for determinism.
		for a := int32(0); a < int32(p.B); a++ {
			if z, ok := acc[a]; ok {
				out[a] = append(out[a], lever{int32(i), z})
			}
		}
	}
	return out
}

// FitRotations refines the bone rotations with the skeleton enforced
// exactly: per frame, block coordinate descent over each bone's global
// rotation (root to leaves; each step is a rotation-only Procrustes
// problem about the bone's head, exact for the whole subtree it carries),
// then the root translation. The transforms p.M must already be
// skeletal (see constrain); they stay so.
func (p *Model) FitRotations(h Hierarchy, sweeps int) {
	lv := p.levers(h)
	// Σ z zᵀ per bone: Σ (R z + r) zᵀ = R Σ z zᵀ + Σ r zᵀ.
	zz := make([]linalg.Mat3, p.B)
	for a := range lv {
		for _, l := range lv[a] {
			zz[a] = zz[a].Add(linalg.Outer(l.z, l.z))
		}
	}
	par.For(p.F, 1, func(lo, hi int) {
		r := make([]linalg.Vec3, p.N)
		rot := make([]linalg.Mat3, p.B)
		pos := make([]linalg.Vec3, p.B)
		for f := lo; f < hi; f++ {
			fr := p.Frame(f)
			mf := p.M[f*p.B : (f+1)*p.B]
			for i := range r {
				r[i] = fr[i].Sub(p.Reconstruct(i, f))
			}
			root := h.Order[0]
			for b := range rot {
				rot[b] = mf[b].M
			}
			rootPos := mf[root].Apply(h.Head[root])
			for s := 0; s < sweeps; s++ {
				for _, a := range h.Order {
					var m linalg.Mat3
					ra := rot[a]
					for _, l := range lv[a] {
						ri, z := r[l.i], l.z
						for q := 0; q < 3; q++ {
							m[q][0] += ri[q] * z[0]
							m[q][1] += ri[q] * z[1]
							m[q][2] += ri[q] * z[2]
						}
					}
					m = m.Add(ra.Mul(zz[a]))
					nr := linalg.BestRotation(m).Mat3()
					d := nr.Add(ra.Scale(-1))
					for _, l := range lv[a] {
						r[l.i] = r[l.i].Sub(d.MulVec(l.z))
					}
					rot[a] = nr
				}
				// Root translation: every vertex's weights sum to one, so a
				// shift of the root shifts every vertex by the same amount.
				var mean linalg.Vec3
				for i := range r {
					mean = mean.Add(r[i])
				}
				mean = mean.Scale(1 / float64(p.N))
				rootPos = rootPos.Add(mean)
				for i := range r {
					r[i] = r[i].Sub(mean)
				}
			}
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
}
