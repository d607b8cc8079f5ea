package edit

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// SplitBone returns r with a new joint on the bone from child's parent to
// child, at fraction t ∈ (0, 1) of the way, as child's new parent; and the
// new joint's id, which is child's old id (joints from there on move one
// place up: old id k becomes k+1 for k ≥ child). The new joint is named
// joint_NN (the first number free), has no skin weight, and turns with
// its parent in the clips (identity local rotation), so every old joint's
// global transform and every vertex's playback are unchanged.
func SplitBone(r *rig.Rig, child rig.JointID, t float64) (*rig.Rig, rig.JointID, error) {
	out, ids, err := split(r, child, t)
	if err != nil {
		return nil, 0, err
	}
	return out, ids[len(ids)-1], nil
}

// split is SplitBone returning the old→new id map with the new joint's id
// appended.
func split(r *rig.Rig, child rig.JointID, t float64) (*rig.Rig, []rig.JointID, error) {
	if err := checkRig(r); err != nil {
		return nil, nil, err
	}
	if err := checkJoint(r, child, "joint"); err != nil {
		return nil, nil, fmt.Errorf("split: %w", err)
	}
	par := r.Skeleton.Joints[child].Parent
	if par == rig.NoParent {
		return nil, nil, fmt.Errorf("split above %s: the root has no bone above it", label(r, child))
	}
	if !(t > 0 && t < 1) {
		return nil, nil, fmt.Errorf("split above %s: fraction %v is not strictly between 0 and 1", label(r, child), t)
	}
	p := newPlan(r)
	head := r.Skeleton.Joints[par].Head.Lerp(r.Skeleton.Joints[child].Head, t)
	at := int(child)
	p.insert(at, entry{
		joint:  rig.Joint{Name: freeName(r.Skeleton.Joints), Parent: par, Head: head},
		old:    added,
		follow: par,
	})
	p.entries[at+1].joint.Parent = rig.JointID(at)
	out, ids, perm, err := p.build()
	if err != nil {
		return nil, nil, err
	}
	return out, append(ids, perm[at]), nil
}

// AddChild returns r with a new leaf joint under parent, its head at head
// (model space), and the new joint's id: the last one (old ids are kept).
// The new joint is named joint_NN (the first number free), has no skin
// weight and follows its parent rigidly in the clips, so playback is
// unchanged.
func AddChild(r *rig.Rig, parent rig.JointID, head linalg.Vec3) (*rig.Rig, rig.JointID, error) {
	out, ids, err := addChild(r, parent, head)
	if err != nil {
		return nil, 0, err
	}
	return out, ids[len(ids)-1], nil
}

func addChild(r *rig.Rig, parent rig.JointID, head linalg.Vec3) (*rig.Rig, []rig.JointID, error) {
	if err := checkRig(r); err != nil {
		return nil, nil, err
	}
	if err := checkJoint(r, parent, "parent"); err != nil {
		return nil, nil, fmt.Errorf("add: %w", err)
	}
	if err := checkHead(head); err != nil {
		return nil, nil, fmt.Errorf("add under %s: %w", label(r, parent), err)
	}
	p := newPlan(r)
	p.entries = append(p.entries, entry{
		joint:  rig.Joint{Name: freeName(r.Skeleton.Joints), Parent: parent, Head: head},
		old:    added,
		follow: parent,
	})
	out, ids, perm, err := p.build()
	if err != nil {
		return nil, nil, err
	}
	return out, append(ids, perm[len(perm)-1]), nil
}
