package collada

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/rig"
)

// The COLLADA 1.5 kinematics subset meshrig writes. Field order is
// element order.

type jointDef struct {
	ID        string     `xml:"id,attr"`
	Name      string     `xml:"name,attr"`
	Revolutes []revolute `xml:"revolute"`
}

type revolute struct {
	SID    string      `xml:"sid,attr"`
	Axis   string      `xml:"axis"`
	Limits *jointRange `xml:"limits,omitempty"`
}

type jointRange struct {
	Min number `xml:"min"`
	Max number `xml:"max"`
}

type kinematicsModel struct {
	ID        string          `xml:"id,attr"`
	Name      string          `xml:"name,attr"`
	Instances []instanceJoint `xml:"technique_common>instance_joint"`
	Link      link            `xml:"technique_common>link"`
}

type instanceJoint struct {
	URL string `xml:"url,attr"`
	SID string `xml:"sid,attr"`
}

// link is a rigid body; each attachment hangs a child link from it by a
// joint, placed by a translation in the link's frame.
type link struct {
	SID         string       `xml:"sid,attr"`
	Name        string       `xml:"name,attr"`
	Attachments []attachment `xml:"attachment_full"`
}

type attachment struct {
	Joint     string `xml:"joint,attr"`
	Translate string `xml:"translate"`
	Link      link   `xml:"link"`
}

type kinematicsScene struct {
	ID    string        `xml:"id,attr"`
	Model instanceModel `xml:"instance_kinematics_model"`
}

type instanceModel struct {
	URL string `xml:"url,attr"`
	SID string `xml:"sid,attr"`
}

// instanceKinematicsScene binds the model to the visual scene: its base
// to the root joint node, each joint axis to a <rotate> of a joint node,
// at its current value (0: the rest pose).
type instanceKinematicsScene struct {
	URL   string     `xml:"url,attr"`
	Model bindModel  `xml:"bind_kinematics_model"`
	Axes  []bindAxis `xml:"bind_joint_axis"`
}

type bindModel struct {
	Node   string `xml:"node,attr"`
	SIDREF string `xml:"SIDREF"`
}

type bindAxis struct {
	Target string  `xml:"target,attr"`
	Axis   string  `xml:"axis>SIDREF"`
	Value  float64 `xml:"value>float"`
}

type rotateEl struct {
	SID  string `xml:"sid,attr"`
	Data string `xml:",chardata"`
}

// axes are the revolute axes of every non-root joint: rotations about
// the parent frame's X, Y and Z (every joint's rest orientation is the
// identity), in this order in both the joint and its node.
var axes = [3]struct {
	sid, rotate, dir string
}{
	{"x", "rotateX", "1 0 0"},
	{"y", "rotateY", "0 1 0"},
	{"z", "rotateZ", "0 0 1"},
}

// Limits bounds a joint's rotation about the X, Y and Z axes of its rest
// frame (the model's axes), in degrees, Min[k] ≤ Max[k].
type Limits struct {
	Min, Max [3]float64
}

// checkLimits refuses limits for joints the rig lacks or its root (the
// kinematic base, which has no joint), and non-finite or inverted ranges.
func checkLimits(r *rig.Rig, limits map[rig.JointID]Limits) error {
	for j, l := range limits {
		if j <= 0 || int(j) >= r.Skeleton.Len() {
			return fmt.Errorf("COLLADA 1.5: limits for joint %d: not a non-root joint of %d", j, r.Skeleton.Len())
		}
		for k := range 3 {
			lo, hi := l.Min[k], l.Max[k]
			if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi {
				return fmt.Errorf("COLLADA 1.5: joint %d (%s) %s limits [%v, %v]", j, r.Skeleton.Joints[j].Name, axes[k].sid, lo, hi)
			}
		}
	}
	return nil
}

// kinematicsOf writes the 1.5 kinematics model of the skeleton: the root
// joint's frame is the base link; every other joint is a <joint> of three
// revolute axes attaching its link to its parent's at the rest offset,
// with angle limits where given. It adds the matching <rotate> elements
// (angle 0) to the joint nodes and returns the libraries and the scene
// binding. A one-joint skeleton has a base link and no joints.
func kinematicsOf(r *rig.Rig, jids []string, nodes map[string]*node, limits map[rig.JointID]Limits, n namer) ([]jointDef, kinematicsModel, kinematicsScene, instanceKinematicsScene) {
	sk := &r.Skeleton
	modelID := n.take("kinematics-model")
	kscene := n.take("kinematics-scene")
	const inst = "model"
	var defs []jointDef
	var model = kinematicsModel{ID: modelID, Name: "skeleton"}
	bind := instanceKinematicsScene{URL: "#" + kscene, Model: bindModel{Node: jids[0], SIDREF: kscene + "/" + inst}}
	links := make([]link, sk.Len())
	for j, jt := range sk.Joints {
		links[j] = link{SID: jids[j] + "-link", Name: jt.Name}
		if j == 0 {
			continue
		}
		id := n.take(jids[j] + "-joint")
		def := jointDef{ID: id, Name: jt.Name}
		lim, limited := limits[rig.JointID(j)]
		for k, a := range axes {
			rv := revolute{SID: a.sid, Axis: a.dir}
			if limited {
				rv.Limits = &jointRange{Min: number(lim.Min[k]), Max: number(lim.Max[k])}
			}
			def.Revolutes = append(def.Revolutes, rv)
			nodes[jids[j]].Rotates = append(nodes[jids[j]].Rotates, rotateEl{SID: a.rotate, Data: a.dir + " 0"})
			bind.Axes = append(bind.Axes, bindAxis{Target: jids[j] + "/" + a.rotate,
				Axis: kscene + "/" + inst + "/" + jids[j] + "/" + a.sid})
		}
		defs = append(defs, def)
		model.Instances = append(model.Instances, instanceJoint{URL: "#" + id, SID: jids[j]})
	}
	// Nest the links: children after parents, so attaching from the last
	// joint up leaves every link complete when it is copied.
	for j := sk.Len() - 1; j > 0; j-- {
		p := sk.Joints[j].Parent
		off := sk.Offset(rig.JointID(j))
		att := attachment{Joint: modelID + "/" + jids[j], Translate: string(appendFloats(nil, off[0], off[1], off[2])), Link: links[j]}
		links[p].Attachments = append([]attachment{att}, links[p].Attachments...)
	}
	model.Link = links[0]
	return defs, model, kinematicsScene{ID: kscene, Model: instanceModel{URL: "#" + modelID, SID: inst}}, bind
}
