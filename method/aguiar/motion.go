package aguiar

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// motion turns per-frame joint positions into skeletal transforms (§6).
// joint[f*B+b] is bone b's head in frame f (the root's: its own center).
// Bone lengths are made constant root to leaves (Eq. 3: the rest length
// is kept, each child moved along its direction from the corrected
// parent), then every bone's rotation is fitted down the chain: the
// rotation that best turns its rest offsets to its children into the
// corrected directions, leaning on the patch's own rotation (patch) for
// the twist a single child cannot fix. It sets m.M.
func motion(m *skinning.Model, h skinning.Hierarchy, joint []linalg.Vec3, patch []linalg.Affine) {
	b := m.B
	children := make([][]int32, b)
	for _, x := range h.Order[1:] {
		children[h.Parent[x]] = append(children[h.Parent[x]], x)
	}
	m.M = make([]linalg.Affine, m.F*b)
	pos := make([]linalg.Vec3, b)
	target := make([]linalg.Vec3, b)
	for f := 0; f < m.F; f++ {
		// Eq. 3, hard: keep each bone's rest length exactly.
		for _, x := range h.Order {
			j := joint[f*b+int(x)]
			if p := h.Parent[x]; p >= 0 {
				l := h.Head[x].Dist(h.Head[p])
				dir := j.Sub(target[p]).Unit()
				if dir == (linalg.Vec3{}) {
					dir = patch[f*b+int(p)].M.MulVec(h.Head[x].Sub(h.Head[p])).Unit()
				}
				j = target[p].Add(dir.Scale(l))
			}
			target[x] = j
		}
		// Rotations down the chain (a CCD-like pass on quaternions).
		rot := make([]linalg.Mat3, b)
		for _, x := range h.Order {
			if p := h.Parent[x]; p < 0 {
				pos[x] = target[x]
			} else {
				pos[x] = pos[p].Add(rot[p].MulVec(h.Head[x].Sub(h.Head[p])))
			}
			var cov linalg.Mat3
			var w float64
			for _, c := range children[x] {
				off := h.Head[c].Sub(h.Head[x])
				cov = cov.Add(linalg.Outer(target[c].Sub(pos[x]), off))
				w += off.Norm2()
			}
			// The patch's rotation as a prior: it fixes the twist.
			pr := patch[f*b+int(x)].M
			cov = cov.Add(pr.Scale(0.1*w + 1e-12))
			rot[x] = linalg.BestRotation(cov).Mat3()
			m.M[f*b+int(x)] = linalg.Affine{M: rot[x], T: pos[x].Sub(rot[x].MulVec(h.Head[x]))}
		}
	}
}
