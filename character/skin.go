package character

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// skin weights every vertex by its distance to each joint's capsule axes:
// w_j ∝ exp(−((d_j − d_min)/s)²) with s half the local radius, so a vertex
// belongs to the nearest bone and blends smoothly across a joint, where two
// bones' axes are about equally near. The four largest weights are kept.
func (b *body) skin(verts []linalg.Vec3) rig.Skin {
	segs := b.segments()
	nj := len(b.bones)
	s := make(rig.Skin, len(verts))
	d := make([]float64, nj)
	r := make([]float64, nj)
	w := make([]float64, nj)
	for i, p := range verts {
		for j := range d {
			d[j] = math.Inf(1)
		}
		for _, sg := range segs {
			if dist, rad := sg.closest(p); dist < d[sg.joint] {
				d[sg.joint], r[sg.joint] = dist, rad
			}
		}
		best := 0
		for j := range d {
			if d[j] < d[best] {
				best = j
			}
		}
		sc := 0.5 * r[best]
		for j := range w {
			x := (d[j] - d[best]) / sc
			w[j] = math.Exp(-x * x)
		}
		s[i] = rig.FromDense(w, 1, nj, rig.MaxInfluences)[0]
	}
	return s
}
