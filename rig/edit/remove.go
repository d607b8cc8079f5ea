package edit

import (
	"fmt"

	"github.com/meshrig/meshrig/rig"
)

// RemoveJoint returns r without joint j, and the new id of every old joint
// (Removed for j; joints after j move one place down). j's children hang
// from j's parent and keep their global rotations (j's local rotation is
// composed into theirs); a child's bone that was rigid takes its new rest
// offset from the parent, so the child's subtree keeps its turns but may
// shift where j turned. j's skin weights go to its parent, merged with
// the parent's own slot where the vertex has one (still ≤ 4, normalized):
// a placeholder until the weights are solved again.
//
// The root can be removed only when it has exactly one child, which
// becomes the root: it takes the root's weights and keeps its own global
// motion (its translation track is its old global head). A root with
// several children is refused (make one of them the root first), and so
// is the only joint.
func RemoveJoint(r *rig.Rig, j rig.JointID) (*rig.Rig, []rig.JointID, error) {
	if err := checkRig(r); err != nil {
		return nil, nil, err
	}
	if err := checkJoint(r, j, "joint"); err != nil {
		return nil, nil, fmt.Errorf("remove: %w", err)
	}
	children := r.Skeleton.Children()[j]
	par := r.Skeleton.Joints[j].Parent
	heir := par
	if par == rig.NoParent {
		switch len(children) {
		case 0:
			return nil, nil, fmt.Errorf("remove %s: it is the only joint", label(r, j))
		case 1:
			heir = children[0]
		default:
			return nil, nil, fmt.Errorf("remove %s: the root has %d children; make one of them the root first", label(r, j), len(children))
		}
	}
	p := newPlan(r)
	for _, c := range children {
		e := &p.entries[c]
		e.joint.Parent = par
		if par != rig.NoParent {
			// The child's new bone spans its old one and j's.
			e.bone = []rig.JointID{c, j}
		}
	}
	p.skin = moveWeights(r.Skin, j, heir)
	p.delete(int(j))
	out, ids, _, err := p.build()
	return out, ids, err
}

// moveWeights returns skin with joint from's weights given to joint to,
// added to to's own slot where a vertex has one, each changed vertex
// normalized. Unchanged vertices are copied as they are.
func moveWeights(skin rig.Skin, from, to rig.JointID) rig.Skin {
	out := make(rig.Skin, len(skin))
	for i, in := range skin {
		out[i] = in
		src, dst := -1, -1
		for k := range in.Joint {
			if in.Weight[k] > 0 {
				switch in.Joint[k] {
				case from:
					src = k
				case to:
					dst = k
				}
			}
		}
		if src < 0 {
			continue
		}
		if dst >= 0 {
			in.Weight[dst] += in.Weight[src]
			in.Joint[src], in.Weight[src] = 0, 0
		} else {
			in.Joint[src] = to
		}
		out[i] = in.Normalized()
	}
	return out
}
