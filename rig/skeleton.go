package rig

import (
	"fmt"
	"unicode/utf8"

	"github.com/meshrig/meshrig/linalg"
)

// JointID indexes Skeleton.Joints.
type JointID int

// NoParent is the Parent of a root joint.
const NoParent JointID = -1

// Joint is one node of the hierarchy.
type Joint struct {
	Name   string
	Parent JointID
	// Head is the joint's rest position in model space.
	Head linalg.Vec3
}

// Skeleton is a joint hierarchy in which every parent precedes its
// children (so forward kinematics is one pass in index order). Joint 0 is
// the root; there is exactly one root.
type Skeleton struct {
	Joints []Joint
}

// Len returns the number of joints.
func (s *Skeleton) Len() int { return len(s.Joints) }

// Offset returns the rest offset of joint j from its parent's head (the
// head itself for the root).
func (s *Skeleton) Offset(j JointID) linalg.Vec3 {
	jt := s.Joints[j]
	if jt.Parent == NoParent {
		return jt.Head
	}
	return jt.Head.Sub(s.Joints[jt.Parent].Head)
}

// Children returns the children of every joint.
func (s *Skeleton) Children() [][]JointID {
	ch := make([][]JointID, len(s.Joints))
	for j, jt := range s.Joints {
		if jt.Parent != NoParent {
			ch[jt.Parent] = append(ch[jt.Parent], JointID(j))
		}
	}
	return ch
}

// Validate checks there is one root, joint 0, that parents precede
// children, names are unique, non-empty and valid UTF-8 (what every
// output format can hold), and heads are finite.
func (s *Skeleton) Validate() error {
	if len(s.Joints) == 0 {
		return fmt.Errorf("skeleton has no joints")
	}
	names := make(map[string]bool, len(s.Joints))
	for j, jt := range s.Joints {
		switch {
		case j == 0 && jt.Parent != NoParent:
			return fmt.Errorf("joint 0 (%s) is not the root", jt.Name)
		case j > 0 && (jt.Parent < 0 || int(jt.Parent) >= j):
			return fmt.Errorf("joint %d (%s): parent %d must be a joint listed before it", j, jt.Name, jt.Parent)
		case jt.Name == "":
			return fmt.Errorf("joint %d has no name", j)
		case !utf8.ValidString(jt.Name):
			return fmt.Errorf("joint %d: name %q is not valid UTF-8", j, jt.Name)
		case names[jt.Name]:
			return fmt.Errorf("joint %d: name %q used twice", j, jt.Name)
		case !jt.Head.IsFinite():
			return fmt.Errorf("joint %d (%s): non-finite head %v", j, jt.Name, jt.Head)
		}
		names[jt.Name] = true
	}
	return nil
}

// Reorder returns the skeleton with joints sorted so every parent precedes
// its children, root first, and the permutation perm with
// new index = perm[old index]. parents may list the root as NoParent and
// any order; an error reports a cycle or more than one root.
func Reorder(joints []Joint) (Skeleton, []JointID, error) {
	n := len(joints)
	root := -1
	ch := make([][]int, n)
	for j, jt := range joints {
		if jt.Parent == NoParent {
			if root >= 0 {
				return Skeleton{}, nil, fmt.Errorf("joints %d and %d are both roots", root, j)
			}
			root = j
			continue
		}
		if jt.Parent < 0 || int(jt.Parent) >= n {
			return Skeleton{}, nil, fmt.Errorf("joint %d: parent %d out of range", j, jt.Parent)
		}
		ch[jt.Parent] = append(ch[jt.Parent], j)
	}
	if root < 0 {
		return Skeleton{}, nil, fmt.Errorf("no root joint")
	}
	perm := make([]JointID, n)
	for i := range perm {
		perm[i] = -1
	}
	order := []int{root}
	perm[root] = 0
	for k := 0; k < len(order); k++ {
		for _, c := range ch[order[k]] {
			perm[c] = JointID(len(order))
			order = append(order, c)
		}
	}
	if len(order) != n {
		return Skeleton{}, nil, fmt.Errorf("%d joints are not reachable from the root (a cycle)", n-len(order))
	}
	out := Skeleton{Joints: make([]Joint, n)}
	for newi, old := range order {
		jt := joints[old]
		if jt.Parent != NoParent {
			jt.Parent = perm[jt.Parent]
		}
		out.Joints[newi] = jt
	}
	return out, perm, nil
}
