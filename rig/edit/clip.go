package edit

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// clip carries clip c of the input over to the edited skeleton s (order
// as from stableOrder; idle as from weightless). Per frame, each joint's
// intended global transform is the skin transform of the joint it
// follows, moved to its own head: rotation Q* = Q_follow, head P* =
// P_follow + Q_follow·(head − head_follow). Its local rotation is
// Q'_parent⁻¹·Q*. Its translation is the new rest offset where its bone is
// rigid (rest offsets held within tol) or where no vertex is weighted to
// its subtree (idle, as placement joints re-rooted below a hip: rigid
// keeps the clip skeletal at no cost), else Q'_parent⁻¹·(P* − P'_parent),
// so free tracks keep their motion exactly. A joint whose bone, parent
// and parent's motion are all unchanged keeps its track bit for bit.
func (p *plan) clip(c *rig.Clip, s *rig.Skeleton, order []int, idle []bool, tol float64) rig.Clip {
	old := &p.in.Skeleton
	no, n := old.Len(), s.Len()
	held := make([]bool, no) // a non-root joint's track holds its rest offset
	for k := 1; k < no; k++ {
		held[k] = true
	}
	for f := 0; f < c.Frames; f++ {
		for k := 1; k < no; k++ {
			if held[k] && c.Translation[f*no+k].Dist(old.Offset(rig.JointID(k))) > tol {
				held[k] = false
			}
		}
	}
	rigid := make([]bool, n)
	follow := make([]rig.JointID, n)
	for id, e := range order {
		follow[id] = p.entries[e].follow
		rigid[id] = true
		for _, o := range p.entries[e].bone {
			rigid[id] = rigid[id] && (held[o] || idle[id])
		}
	}
	out := rig.Clip{Name: c.Name, FPS: c.FPS, Frames: c.Frames,
		Rotation:    make([]linalg.Quat, c.Frames*n),
		Translation: make([]linalg.Vec3, c.Frames*n),
	}
	// Global rotation and head of every input joint (qg, pg) and edited
	// joint (qn, pn) in one frame, by the same products as each other so
	// that unchanged chains compare equal.
	qg, pg := make([]linalg.Quat, no), make([]linalg.Vec3, no)
	qn, pn := make([]linalg.Quat, n), make([]linalg.Vec3, n)
	for f := 0; f < c.Frames; f++ {
		for k, jt := range old.Joints {
			q, t := c.Rotation[f*no+k], c.Translation[f*no+k]
			if jt.Parent == rig.NoParent {
				qg[k], pg[k] = q, t
				continue
			}
			qg[k] = qg[jt.Parent].Mul(q)
			pg[k] = pg[jt.Parent].Add(qg[jt.Parent].Rotate(t))
		}
		for id, jt := range s.Joints {
			x := follow[id]
			hx := old.Joints[x].Head
			qs := qg[x]
			ps := pg[x].Add(qs.Rotate(jt.Head.Sub(hx)))
			var q linalg.Quat
			var t linalg.Vec3
			pp := jt.Parent
			switch {
			case pp == rig.NoParent:
				q, t = qs, ps
				if old.Joints[x].Parent != rig.NoParent {
					q = q.Normalize() // a product of rotations
				}
			case old.Joints[x].Parent == follow[pp] && jt.Head == hx &&
				s.Joints[pp].Head == old.Joints[follow[pp]].Head &&
				qn[pp] == qg[follow[pp]] && pn[pp] == pg[follow[pp]]:
				q, t = c.Rotation[f*no+int(x)], c.Translation[f*no+int(x)]
			default:
				inv := qn[pp].Conj()
				q = linalg.IdentityQuat
				if qs != qn[pp] {
					q = inv.Mul(qs).Normalize()
				}
				if rigid[id] {
					t = jt.Head.Sub(s.Joints[pp].Head)
				} else {
					t = inv.Rotate(ps.Sub(pn[pp]))
				}
			}
			out.Rotation[f*n+id], out.Translation[f*n+id] = q, t
			if pp == rig.NoParent {
				qn[id], pn[id] = q, t
			} else {
				qn[id] = qn[pp].Mul(q)
				pn[id] = pn[pp].Add(qn[pp].Rotate(t))
			}
		}
	}
	return out
}
