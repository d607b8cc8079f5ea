package rig

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// Deform writes into out (allocated when short) the linear blend skinning
// of rest by skin with per-joint transforms mats: v'_i = Σ_k w_ik M_{j_ik} v_i.
// It runs on every core.
func Deform(out, rest []linalg.Vec3, skin Skin, mats []linalg.Affine) []linalg.Vec3 {
	if len(out) < len(rest) {
		out = make([]linalg.Vec3, len(rest))
	}
	out = out[:len(rest)]
	par.For(len(rest), 4096, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			in := &skin[i]
			p := rest[i]
			var v linalg.Vec3
			for k := 0; k < MaxInfluences; k++ {
				w := in.Weight[k]
				if w == 0 {
					continue
				}
				v = v.Add(mats[in.Joint[k]].Apply(p).Scale(w))
			}
			out[i] = v
		}
	})
	return out
}
