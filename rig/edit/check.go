package edit

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// checkRig refuses a nil or invalid input, so that no edit indexes past
// a slice of a malformed rig.
func checkRig(r *rig.Rig) error {
	if r == nil {
		return fmt.Errorf("no rig to edit")
	}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("rig to edit is invalid: %w", err)
	}
	return nil
}

// checkJoint refuses an id outside the skeleton; role names it in the
// message ("joint", "parent").
func checkJoint(r *rig.Rig, j rig.JointID, role string) error {
	if j < 0 || int(j) >= r.Skeleton.Len() {
		return fmt.Errorf("%s %d out of range (the rig has %d joints)", role, j, r.Skeleton.Len())
	}
	return nil
}

// checkHead refuses a head that is not a finite point.
func checkHead(h linalg.Vec3) error {
	if !h.IsFinite() {
		return fmt.Errorf("head %v is not a finite point", h)
	}
	return nil
}

// label names joint j for messages: "joint 3 (elbow_l)".
func label(r *rig.Rig, j rig.JointID) string {
	return fmt.Sprintf("joint %d (%s)", j, r.Skeleton.Joints[j].Name)
}

// freeName returns the first of joint_01, joint_02, … that no joint has.
func freeName(joints []rig.Joint) string {
	taken := make(map[string]bool, len(joints))
	for _, jt := range joints {
		taken[jt.Name] = true
	}
	for k := 1; ; k++ {
		if n := fmt.Sprintf("joint_%02d", k); !taken[n] {
			return n
		}
	}
}

// identity returns the old→new id map of an edit that keeps every id.
func identity(n int) []rig.JointID {
	ids := make([]rig.JointID, n)
	for k := range ids {
		ids[k] = rig.JointID(k)
	}
	return ids
}
