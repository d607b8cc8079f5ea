package edit

import (
	"fmt"
	"unicode/utf8"

	"github.com/meshrig/meshrig/rig"
)

// Rename returns r with joint j named name: non-empty, valid UTF-8 and no
// other joint's name. Ids, skin and clips are unchanged.
func Rename(r *rig.Rig, j rig.JointID, name string) (*rig.Rig, error) {
	if err := checkRig(r); err != nil {
		return nil, err
	}
	if err := checkJoint(r, j, "joint"); err != nil {
		return nil, fmt.Errorf("rename: %w", err)
	}
	switch {
	case name == "":
		return nil, fmt.Errorf("rename %s: empty name", label(r, j))
	case !utf8.ValidString(name):
		return nil, fmt.Errorf("rename %s: name %q is not valid UTF-8", label(r, j), name)
	}
	for k, jt := range r.Skeleton.Joints {
		if jt.Name == name && rig.JointID(k) != j {
			return nil, fmt.Errorf("rename %s: %q is the name of joint %d", label(r, j), name, k)
		}
	}
	p := newPlan(r)
	p.entries[j].joint.Name = name
	out, _, _, err := p.build()
	return out, err
}
