package collada

import (
	"encoding/xml"
	"io"

	"github.com/meshrig/meshrig/rig"
)

// document15 is a COLLADA 1.5 document: the 1.4.1 sections (geometry,
// skin controller with inverse bind matrices in the global frame, joint
// node tree, animations), which 1.5 keeps as they are, plus the
// kinematics model the Laplacian-contraction paper exports (§7): a
// library of joints, the model's links, a kinematics scene, and the
// scene's binding of the model to the joint nodes. 1.5 lets libraries
// come in any order; the visual ones come first, as in 1.4.1.
type document15 struct {
	XMLName          xml.Name          `xml:"COLLADA"`
	Xmlns            string            `xml:"xmlns,attr"`
	Version          string            `xml:"version,attr"`
	Asset            asset             `xml:"asset"`
	Effects          *effectLibrary    `xml:"library_effects"`
	Materials        *materialLibrary  `xml:"library_materials"`
	Geometries       []geometry        `xml:"library_geometries>geometry"`
	Controller       []controller      `xml:"library_controllers>controller"`
	Animations       *animations       `xml:"library_animations"`
	Clips            *animationClips   `xml:"library_animation_clips"`
	Scenes           []visualScene     `xml:"library_visual_scenes>visual_scene"`
	Joints           *jointLibrary     `xml:"library_joints"`
	KinematicsModels []kinematicsModel `xml:"library_kinematics_models>kinematics_model"`
	KinematicsScenes []kinematicsScene `xml:"library_kinematics_scenes>kinematics_scene"`
	Scene            scene15           `xml:"scene"`
}

// jointLibrary is a pointer field: a one-joint skeleton has no joints,
// and the schema wants at least one in the library.
type jointLibrary struct {
	List []jointDef `xml:"joint"`
}

type scene15 struct {
	Visual     instance                `xml:"instance_visual_scene"`
	Kinematics instanceKinematicsScene `xml:"instance_kinematics_scene"`
}

// Write15 writes r as a COLLADA 1.5 document with the given joint angle
// limits (nil: none; keyed by joint, root excluded). Write with
// opt.Version "1.5" is Write15 without limits. An invalid rig or invalid
// limits are refused before anything is written.
func Write15(w io.Writer, r *rig.Rig, limits map[rig.JointID]Limits) error {
	if err := check(r); err != nil {
		return err
	}
	if err := checkLimits(r, limits); err != nil {
		return err
	}
	return encode(w, document15of(r, limits))
}

func document15of(r *rig.Rig, limits map[rig.JointID]Limits) *document15 {
	n := namer{}
	names := make([]string, r.Skeleton.Len())
	for j, jt := range r.Skeleton.Joints {
		names[j] = jt.Name
	}
	jids := jointIDs(names, n)
	mats := materialsOf(r.Mesh.Surface, n, true) // colours only: see materialsOf
	geom := geometryOf(r.Mesh, n, mats.syms)
	ctrl := controllerOf(r, jids, geom.ID, n)
	scene := sceneOf(r, jids, ctrl.ID, n)
	scene.Nodes[len(scene.Nodes)-1].Controller.BindMaterial = mats.bind
	nodes := map[string]*node{}
	var walk func(nd *node)
	walk = func(nd *node) {
		if nd.Type == "JOINT" {
			nodes[nd.ID] = nd
		}
		for k := range nd.Children {
			walk(&nd.Children[k])
		}
	}
	for k := range scene.Nodes {
		walk(&scene.Nodes[k])
	}
	defs, model, kscene, bind := kinematicsOf(r, jids, nodes, limits, n)
	doc := &document15{
		Xmlns:   "http://www.collada.org/2008/03/COLLADASchema",
		Version: "1.5.0",
		Asset: asset{Tool: "meshrig", Created: timestamp, Modified: timestamp,
			Unit: unit{Name: "meter", Meter: 1}, UpAxis: "Y_UP"},
		Effects:          mats.effects,
		Materials:        mats.materials,
		Geometries:       []geometry{geom},
		Controller:       []controller{ctrl},
		Scenes:           []visualScene{scene},
		KinematicsModels: []kinematicsModel{model},
		KinematicsScenes: []kinematicsScene{kscene},
		Scene:            scene15{Visual: instance{URL: "#" + scene.ID}, Kinematics: bind},
	}
	if len(defs) > 0 {
		doc.Joints = &jointLibrary{defs}
	}
	if anims, clips := animationsOf(r, jids, n); len(anims) > 0 {
		doc.Animations = &animations{anims}
		doc.Clips = &animationClips{clips}
	}
	return doc
}
