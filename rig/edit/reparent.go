package edit

import (
	"fmt"

	"github.com/meshrig/meshrig/rig"
)

// Reparent returns r with joint j (and its subtree) under parent, and the
// new id of every old joint (the subtree moves after parent where the
// order requires). Every joint keeps its global rotation in every frame:
// j's local rotation becomes R_parent⁻¹·R_j. A rigid bone's translation
// is its new rest offset, so j's subtree turns as before but follows its
// new parent; a free track keeps its global position (unless no vertex
// is weighted to its subtree: then it is made rigid). Reparenting the
// root (use SetRoot) and a parent inside j's subtree (a cycle) are
// refused.
func Reparent(r *rig.Rig, j, parent rig.JointID) (*rig.Rig, []rig.JointID, error) {
	if err := checkRig(r); err != nil {
		return nil, nil, err
	}
	if err := checkJoint(r, j, "joint"); err != nil {
		return nil, nil, fmt.Errorf("reparent: %w", err)
	}
	if err := checkJoint(r, parent, "parent"); err != nil {
		return nil, nil, fmt.Errorf("reparent %s: %w", label(r, j), err)
	}
	if r.Skeleton.Joints[j].Parent == rig.NoParent {
		return nil, nil, fmt.Errorf("reparent %s: it is the root; pick another root first", label(r, j))
	}
	for k := parent; k != rig.NoParent; k = r.Skeleton.Joints[k].Parent {
		if k == j {
			return nil, nil, fmt.Errorf("reparent %s under %s: that joint is in its subtree (a cycle)", label(r, j), label(r, parent))
		}
	}
	p := newPlan(r)
	p.entries[j].joint.Parent = parent
	out, ids, _, err := p.build()
	return out, ids, err
}

// SetRoot returns r re-rooted at joint j, and the new id of every old
// joint (j becomes 0). The parent links on the path from the old root to j
// are reversed; every joint keeps its global rotation in every frame, and
// j's translation track is its old global head, so j moves as before.
// A reversed bone takes the rigidity of the bone it was: when rigid, its
// new child sits at the rest offset from its new parent, turned by the
// parent's rotation (not the child's, as before), so joints on the path
// can shift where they turned; a free track keeps its global position
// (unless no vertex is weighted to its subtree: then it is made rigid).
func SetRoot(r *rig.Rig, j rig.JointID) (*rig.Rig, []rig.JointID, error) {
	if err := checkRig(r); err != nil {
		return nil, nil, err
	}
	if err := checkJoint(r, j, "joint"); err != nil {
		return nil, nil, fmt.Errorf("set root: %w", err)
	}
	p := newPlan(r)
	for k := j; r.Skeleton.Joints[k].Parent != rig.NoParent; {
		par := r.Skeleton.Joints[k].Parent
		e := &p.entries[par]
		e.joint.Parent = k
		e.bone = []rig.JointID{k} // the bone k→par is the one par→k was
		k = par
	}
	p.entries[j].joint.Parent = rig.NoParent
	out, ids, _, err := p.build()
	return out, ids, err
}
