package static

import (
	"fmt"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// Rig turns the skeleton and a skin of m (joint indices into s.Joints, as
// method/skinweights returns) into a rig with no clips: the hierarchy is
// s.Tree() reordered so parents precede children (root first), joints
// are named "joint<new index>" with the root "root" — or by s.Names where
// it names them (a name already taken is skipped) — and the skin's joint
// indices follow the reordering. It fails on an invalid skeleton or a
// skin that does not fit m or s.
func (s *Skeleton) Rig(m *mesh.Mesh, skin rig.Skin) (*rig.Rig, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(skin) != len(m.Verts) {
		return nil, fmt.Errorf("skin has %d vertices, mesh has %d", len(skin), len(m.Verts))
	}
	if err := skin.Validate(len(s.Joints)); err != nil {
		return nil, err
	}
	parent, _ := s.Tree()
	joints := make([]rig.Joint, len(s.Joints))
	for j, p := range parent {
		joints[j] = rig.Joint{Parent: rig.JointID(p), Head: s.Joints[j]}
	}
	sk, perm, err := rig.Reorder(joints)
	if err != nil {
		return nil, err
	}
	for j := range sk.Joints {
		sk.Joints[j].Name = fmt.Sprintf("joint%d", j)
	}
	sk.Joints[0].Name = "root"
	if s.Names != nil {
		used := map[string]bool{}
		for _, jt := range sk.Joints {
			used[jt.Name] = true
		}
		for j, name := range s.Names {
			if name != "" && !used[name] {
				used[name] = true
				sk.Joints[perm[j]].Name = name
			}
		}
	}
	out := make(rig.Skin, len(skin))
	for i, in := range skin {
		for k := range in.Joint {
			in.Joint[k] = perm[in.Joint[k]]
		}
		out[i] = in
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: out}
	return r, r.Validate()
}
