package edit

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// Op is one edit as a viewer sends it in JSON. Kind selects the edit and
// the fields it reads; the others are ignored:
//
//	move      Joint, Head      MoveJoint
//	split     Joint, T         SplitBone (Joint is the bone's child)
//	add       Parent, Head     AddChild
//	remove    Joint            RemoveJoint
//	reparent  Joint, Parent    Reparent
//	root      Joint            SetRoot
//	rename    Joint, Name      Rename
//
// Head is a model-space point.
type Op struct {
	Kind   string     `json:"kind"`
	Joint  int        `json:"joint"`
	Parent int        `json:"parent"`
	T      float64    `json:"t"`
	Head   [3]float64 `json:"head"`
	Name   string     `json:"name"`
}

// Apply performs op on r and returns the edited rig and ids, the new id of
// every joint of r (ids[k] for old joint k, Removed for a removed joint);
// for "split" and "add", ids has one entry more, the new joint's id, so a
// viewer can select it. Every field the kind reads is checked (ids in
// range, heads finite, fractions in (0, 1), names): a bad op is an error,
// never a panic, and r is never changed.
func Apply(r *rig.Rig, op Op) (*rig.Rig, []rig.JointID, error) {
	if r == nil {
		return nil, nil, fmt.Errorf("no rig to edit")
	}
	n := r.Skeleton.Len()
	id := func(v int, role string) (rig.JointID, error) {
		if v < 0 || v >= n {
			return 0, fmt.Errorf("%s: %s %d out of range (the rig has %d joints)", op.Kind, role, v, n)
		}
		return rig.JointID(v), nil
	}
	head := linalg.Vec3(op.Head)
	switch op.Kind {
	case "move", "split", "remove", "reparent", "root", "rename":
		j, err := id(op.Joint, "joint")
		if err != nil {
			return nil, nil, err
		}
		switch op.Kind {
		case "move":
			out, err := MoveJoint(r, j, head)
			return keepIDs(out, n, err)
		case "split":
			return split(r, j, op.T)
		case "remove":
			return RemoveJoint(r, j)
		case "reparent":
			p, err := id(op.Parent, "parent")
			if err != nil {
				return nil, nil, err
			}
			return Reparent(r, j, p)
		case "root":
			return SetRoot(r, j)
		default:
			out, err := Rename(r, j, op.Name)
			return keepIDs(out, n, err)
		}
	case "add":
		p, err := id(op.Parent, "parent")
		if err != nil {
			return nil, nil, err
		}
		return addChild(r, p, head)
	}
	return nil, nil, fmt.Errorf("unknown edit %q (have move, split, add, remove, reparent, root, rename)", op.Kind)
}

func keepIDs(out *rig.Rig, n int, err error) (*rig.Rig, []rig.JointID, error) {
	if err != nil {
		return nil, nil, err
	}
	return out, identity(n), nil
}
