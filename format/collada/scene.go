package collada

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// sceneOf writes the joint hierarchy and the node instancing the skin.
// Each joint's local rest transform is a <matrix sid="transform">: the
// translation by its offset from the parent's head (the root's by its
// head). The animations target that matrix: whole-matrix channels are
// the most widely imported form (TestAssimpAnimatesJoints checks assimp;
// Blender's importer reads them too), and a free-form rig's joints need
// more than a rotation anyway.
func sceneOf(r *rig.Rig, jids []string, skinID string, n namer) visualScene {
	id := n.take("scene")
	nodes := make([]node, r.Skeleton.Len())
	for j, jt := range r.Skeleton.Joints {
		nodes[j] = node{ID: jids[j], SID: jids[j], Name: jt.Name, Type: "JOINT",
			Matrix: &matrixEl{SID: "transform", Data: matrix(linalg.Translation(r.Skeleton.Offset(rig.JointID(j))))}}
	}
	// Children come after their parents: attaching from the last joint
	// up, every node is complete when it is copied into its parent.
	for j := r.Skeleton.Len() - 1; j > 0; j-- {
		p := r.Skeleton.Joints[j].Parent
		nodes[p].Children = append([]node{nodes[j]}, nodes[p].Children...)
	}
	meshNode := node{ID: n.take("skinned-mesh"), Name: "mesh", Type: "NODE",
		Controller: &instanceController{URL: "#" + skinID, Skeleton: "#" + jids[0]}}
	return visualScene{ID: id, Name: "scene", Nodes: []node{nodes[0], meshNode}}
}
