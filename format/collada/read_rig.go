package collada

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// skeleton is the rig's joint hierarchy built from a skin's joints.
type skeleton struct {
	skel rig.Skeleton
	node []int           // rig joint → scene node; -1 for an added root
	ibm  []linalg.Affine // rig joint → inverse bind matrix
	slot []rig.JointID   // skin joint → rig joint
}

// skeletonOf builds the skeleton of the skin's joints, at nodes: a
// joint's parent is its nearest ancestor node that is a joint, and
// several top joints hang under a still joint "root" added at the origin.
// Heads are where the inverse bind matrices put the joints' origins; the
// rest orientation the matrices may also hold is folded into the clips
// (see sample). The skin's joint order is kept when parents come first.
func skeletonOf(sc *sceneData, s *skinData, nodes []int) (*skeleton, error) {
	isJoint := map[int]int{}
	for j, k := range nodes {
		isJoint[k] = j
	}
	names := map[string]bool{}
	joints := make([]rig.Joint, len(nodes), len(nodes)+1)
	var tops []int
	for j, k := range nodes {
		el := sc.nodes[k].el
		parent := rig.NoParent
		for a := sc.nodes[k].parent; a >= 0; a = sc.nodes[a].parent {
			if p, ok := isJoint[a]; ok {
				parent = rig.JointID(p)
				break
			}
		}
		if parent == rig.NoParent {
			tops = append(tops, j)
		}
		bind, ok := s.ibm[j].Inverse()
		if !ok || !bind.T.IsFinite() {
			return nil, s.jointsEl.errorf("joint %q: its inverse bind matrix is singular", s.names[j])
		}
		name := unique(names, firstOf(el.get("name"), el.get("id"), el.get("sid"), fmt.Sprintf("joint_%d", j+1)))
		// Adding zero turns the −0 of negated translations into 0.
		joints[j] = rig.Joint{Name: name, Parent: parent, Head: bind.T.Add(linalg.Vec3{})}
	}
	sk := &skeleton{node: append([]int(nil), nodes...), ibm: append([]linalg.Affine(nil), s.ibm...)}
	if len(tops) > 1 {
		root := rig.JointID(len(joints))
		for _, j := range tops {
			joints[j].Parent = root
		}
		joints = append(joints, rig.Joint{Name: unique(names, "root"), Parent: rig.NoParent})
		sk.node = append(sk.node, -1)
		sk.ibm = append(sk.ibm, linalg.IdentityAffine())
	}
	ordered := joints[0].Parent == rig.NoParent
	for j := 1; j < len(joints) && ordered; j++ {
		ordered = joints[j].Parent >= 0 && int(joints[j].Parent) < j
	}
	perm := make([]rig.JointID, len(joints))
	if ordered {
		sk.skel = rig.Skeleton{Joints: joints}
		for j := range perm {
			perm[j] = rig.JointID(j)
		}
	} else {
		var err error
		if sk.skel, perm, err = rig.Reorder(joints); err != nil {
			return nil, s.jointsEl.errorf("%v", err) // cannot happen: parents come from a tree
		}
		node, ibm := make([]int, len(perm)), make([]linalg.Affine, len(perm))
		for old, nw := range perm {
			node[nw], ibm[nw] = sk.node[old], sk.ibm[old]
		}
		sk.node, sk.ibm = node, ibm
	}
	sk.slot = perm[:len(nodes)]
	return sk, nil
}

// unique returns name, suffixed with underscores until no earlier joint
// has it, and records it.
func unique(names map[string]bool, name string) string {
	for names[name] {
		name += "_"
	}
	names[name] = true
	return name
}

// skinOfRig returns the rig's skin: each vertex's four largest
// influences, renormalized (as the glTF reader keeps them), with joints
// as rig joints. wide reports whether some vertex had more than four.
func (sk *skeleton) skinOfRig(s *skinData) (out rig.Skin, wide bool) {
	out = make(rig.Skin, len(s.start)-1)
	for i := range out {
		var in rig.Influence
		for r := s.start[i]; r < s.start[i+1]; r++ {
			small := 0
			for k := 1; k < rig.MaxInfluences; k++ {
				if in.Weight[k] < in.Weight[small] {
					small = k
				}
			}
			if w := s.weight[r]; w > in.Weight[small] {
				in.Joint[small], in.Weight[small] = sk.slot[s.joint[r]], w
			}
		}
		out[i] = in.Normalized()
		wide = wide || s.start[i+1]-s.start[i] > rig.MaxInfluences
	}
	return out, wide
}
