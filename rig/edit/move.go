package edit

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// MoveJoint returns r with joint j's rest head at head (model space); no
// other head moves, and joint ids are unchanged.
//
// In the clips, a bone that was rigid (its translation track at its rest
// offset, as in every skeletal rig) stays rigid at its new length: j's
// track and its children's take the new rest offsets, rotations are kept,
// so j's subtree swings about the moved pivot — per frame its joints
// shift by (R_parent − R_j)·(head − old head), R the global rotations.
// Any other track keeps its joint's skin transform exactly: the root's
// translation becomes the point its old motion carried the new head to
// (moving the root changes no vertex's playback), and so does a free
// bone's (the free form of rig.NewFree, a hip carrying the root motion),
// unless no vertex is weighted to its subtree (then it is made rigid).
func MoveJoint(r *rig.Rig, j rig.JointID, head linalg.Vec3) (*rig.Rig, error) {
	if err := checkRig(r); err != nil {
		return nil, err
	}
	if err := checkJoint(r, j, "joint"); err != nil {
		return nil, fmt.Errorf("move: %w", err)
	}
	if err := checkHead(head); err != nil {
		return nil, fmt.Errorf("move %s: %w", label(r, j), err)
	}
	p := newPlan(r)
	p.entries[j].joint.Head = head
	out, _, _, err := p.build()
	return out, err
}
