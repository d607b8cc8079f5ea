package edit

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// Removed marks, in an old→new id map, a joint the edit removed.
const Removed rig.JointID = -1

// added is the old id of a plan entry that is a new joint.
const added rig.JointID = -1

// entry is one joint of an edited skeleton before it is put in order.
type entry struct {
	// joint's Parent indexes the plan's entries (NoParent for the root).
	joint rig.Joint
	// old is the joint of the input rig this entry is, or added for a new
	// joint.
	old rig.JointID
	// follow is the input joint whose skin transform this joint keeps in
	// the clips: its intended global transform is follow's, moved to the
	// joint's own head (M_new = M_follow, so vertices keep their motion
	// wherever the translations are free).
	follow rig.JointID
	// bone lists the input joints whose translation tracks must all hold
	// their rest offsets in a clip for this joint's track to be set to its
	// new rest offset there (a rigid bone stays rigid); nil for a new bone,
	// rigid always. A joint whose track is free keeps its global position
	// unless no vertex is weighted to its subtree.
	bone []rig.JointID
}

// plan is an edited skeleton: entries in a proposed order (any order with
// one root) and the skin in the input's joint ids.
type plan struct {
	in      *rig.Rig
	entries []entry
	skin    rig.Skin
}

// newPlan returns the plan that keeps r as it is.
func newPlan(r *rig.Rig) *plan {
	p := &plan{in: r, entries: make([]entry, r.Skeleton.Len()), skin: r.Skin}
	for k, jt := range r.Skeleton.Joints {
		p.entries[k] = entry{joint: jt, old: rig.JointID(k), follow: rig.JointID(k), bone: []rig.JointID{rig.JointID(k)}}
	}
	return p
}

// insert puts e at index at, shifting the entries from at on by one.
func (p *plan) insert(at int, e entry) {
	for k := range p.entries {
		if int(p.entries[k].joint.Parent) >= at {
			p.entries[k].joint.Parent++
		}
	}
	p.entries = append(p.entries, entry{})
	copy(p.entries[at+1:], p.entries[at:])
	p.entries[at] = e
}

// delete drops entry at; no entry may still have it as parent.
func (p *plan) delete(at int) {
	p.entries = append(p.entries[:at], p.entries[at+1:]...)
	for k := range p.entries {
		if int(p.entries[k].joint.Parent) > at {
			p.entries[k].joint.Parent--
		}
	}
}

// build puts the plan's joints in order (parents first, the proposed
// order kept where the hierarchy allows), carries the skin and the clips
// over and validates the result. It returns the rig, the new id of every
// input joint (Removed for one the plan dropped) and the new id of every
// entry.
func (p *plan) build() (*rig.Rig, []rig.JointID, []rig.JointID, error) {
	order, perm, err := stableOrder(p.entries)
	if err != nil {
		return nil, nil, nil, err
	}
	n := len(order)
	in := p.in
	ids := make([]rig.JointID, in.Skeleton.Len())
	for k := range ids {
		ids[k] = Removed
	}
	out := &rig.Rig{Mesh: in.Mesh, Skeleton: rig.Skeleton{Joints: make([]rig.Joint, n)}}
	for newID, e := range order {
		jt := p.entries[e].joint
		if jt.Parent != rig.NoParent {
			jt.Parent = perm[jt.Parent]
		}
		out.Skeleton.Joints[newID] = jt
		if o := p.entries[e].old; o != added {
			ids[o] = rig.JointID(newID)
		}
	}
	out.Skin = make(rig.Skin, len(p.skin))
	for i, infl := range p.skin {
		for k := range infl.Joint {
			if infl.Weight[k] > 0 {
				infl.Joint[k] = ids[infl.Joint[k]]
			} else {
				infl.Joint[k] = 0
			}
		}
		out.Skin[i] = infl
	}
	tol := rigidTol(in)
	idle := weightless(&out.Skeleton, out.Skin)
	out.Clips = make([]rig.Clip, len(in.Clips))
	same := p.sameSkeleton(order)
	for c := range in.Clips {
		ic := &in.Clips[c]
		if same && ic.HasScale() {
			// The skeleton as it was (a rename): the tracks as they
			// were, scales included.
			out.Clips[c] = rig.Clip{Name: ic.Name, FPS: ic.FPS, Frames: ic.Frames,
				Rotation:    append([]linalg.Quat(nil), ic.Rotation...),
				Translation: append([]linalg.Vec3(nil), ic.Translation...),
				Scale:       append([]linalg.Vec3(nil), ic.Scale...)}
			continue
		}
		out.Clips[c] = p.clip(ic, &out.Skeleton, order, idle, tol)
		if ic.HasScale() {
			// Squash and stretch does not survive a changed hierarchy as
			// it is: a scale is inherited down the joints below it, so
			// each would have to be split again at the new joints. The
			// rotations and translations are carried as a rotation-only
			// rig's, and the scale tracks come back as ones: still scale
			// tracks, so a refit fits them again (registry.RefitAnimation,
			// as the viewer's re-solve and meshrig refit do).
			sc := make([]linalg.Vec3, ic.Frames*n)
			for k := range sc {
				sc[k] = linalg.Vec3{1, 1, 1}
			}
			out.Clips[c].Scale = sc
		}
	}
	if err := out.Validate(); err != nil {
		// The edits keep every rule Validate checks: this is a bug here.
		return nil, nil, nil, fmt.Errorf("edited rig is invalid: %w", err)
	}
	return out, ids, perm, nil
}

// sameSkeleton reports whether the plan, in order, is the input's
// skeleton joint for joint — the same parents and heads — as after a
// rename.
func (p *plan) sameSkeleton(order []int) bool {
	in := p.in.Skeleton.Joints
	if len(order) != len(in) {
		return false
	}
	for id, e := range order {
		en := p.entries[e]
		if int(en.old) != id || en.joint.Parent != in[id].Parent || en.joint.Head != in[id].Head {
			return false
		}
	}
	return true
}

// weightless reports, for every joint of s, whether no vertex is weighted
// to it or to a joint below it: its motion shows in no vertex.
func weightless(s *rig.Skeleton, skin rig.Skin) []bool {
	moves := make([]bool, s.Len())
	for _, infl := range skin {
		for k, w := range infl.Weight {
			if w > 0 {
				moves[infl.Joint[k]] = true
			}
		}
	}
	// Children follow their parents: one pass from the last joint up.
	for k := s.Len() - 1; k > 0; k-- {
		if moves[k] {
			moves[s.Joints[k].Parent] = true
		}
	}
	for k := range moves {
		moves[k] = !moves[k]
	}
	return moves
}

// rigidTol is how far a translation may sit from its rest offset for the
// bone to count as rigid: Rig.Skeletal's float32-file tolerance, 1e-6 of
// the larger of the mesh's diagonal and its farthest coordinate or head.
func rigidTol(r *rig.Rig) float64 {
	lo, hi := linalg.Vec3{}, linalg.Vec3{}
	scale := 0.0
	for i, v := range r.Mesh.Verts {
		if i == 0 {
			lo, hi = v, v
		}
		lo, hi = lo.Min(v), hi.Max(v)
		scale = max(scale, abs3(v))
	}
	scale = max(scale, hi.Sub(lo).Norm())
	for _, j := range r.Skeleton.Joints {
		scale = max(scale, abs3(j.Head))
	}
	return 1e-6 * scale
}

func abs3(v linalg.Vec3) float64 {
	return max(v[0], -v[0], v[1], -v[1], v[2], -v[2])
}
