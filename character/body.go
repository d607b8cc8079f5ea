package character

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// bone is one joint of a character: the joint's rest head, the radius of
// the flesh around it, and how it moves.
type bone struct {
	name   string
	parent int
	head   linalg.Vec3
	radius float64
	// Leaves end at tip, with tipRadius.
	tip       linalg.Vec3
	tipRadius float64
	// Motion: rotation about axis by bias + amp·wave(cycles·2πt/T + phase).
	// oneSided joints (knees, fingers) bend only one way: wave = (1−cos)/2.
	axis     linalg.Vec3
	amp      float64
	bias     float64
	cycles   float64
	phase    float64
	oneSided bool
}

// shell is a separate sphere that rides on a joint.
type shell struct {
	center linalg.Vec3
	radius float64
	joint  int
}

// body is a character's definition.
type body struct {
	bones []bone
	// root motion over normalized time u ∈ [0,1): translation offset from
	// the root's head and rotation.
	rootMotion func(u float64) (linalg.Vec3, linalg.Quat)
	shells     []shell
	shellStart int // first vertex of the shells in the mesh; 0 when none
}

// segment is a capsule of the body: from a to b, radius ra to rb, owned
// by joint.
type segment struct {
	a, b   linalg.Vec3
	ra, rb float64
	joint  int
}

// segments lists each joint's capsules: to every child's head, or to its
// tip for a leaf.
func (b *body) segments() []segment {
	var out []segment
	leaf := make([]bool, len(b.bones))
	for j := range leaf {
		leaf[j] = true
	}
	for j, bn := range b.bones {
		if bn.parent >= 0 {
			leaf[bn.parent] = false
			p := b.bones[bn.parent]
			out = append(out, segment{p.head, bn.head, p.radius, bn.radius, bn.parent})
		}
		_ = j
	}
	for j, bn := range b.bones {
		if leaf[j] {
			out = append(out, segment{bn.head, bn.tip, bn.radius, bn.tipRadius, j})
		}
	}
	return out
}

// skeleton returns the rig skeleton (bones are listed parents first).
func (b *body) skeleton() rig.Skeleton {
	sk := rig.Skeleton{Joints: make([]rig.Joint, len(b.bones))}
	for j, bn := range b.bones {
		sk.Joints[j] = rig.Joint{Name: bn.name, Parent: rig.JointID(bn.parent), Head: bn.head}
		if bn.parent < 0 {
			sk.Joints[j].Parent = rig.NoParent
		}
	}
	return sk
}

// closest returns the distance from p to segment s and the radius there.
func (s segment) closest(p linalg.Vec3) (dist, radius float64) {
	ab := s.b.Sub(s.a)
	t := 0.0
	if l2 := ab.Norm2(); l2 > 0 {
		t = math.Max(0, math.Min(1, p.Sub(s.a).Dot(ab)/l2))
	}
	return p.Dist(s.a.Add(ab.Scale(t))), s.ra + t*(s.rb-s.ra)
}

// shellJoint returns the joint of the shell nearest p.
func (b *body) shellJoint(p linalg.Vec3) rig.JointID {
	best, bd := 0, math.Inf(1)
	for _, s := range b.shells {
		if d := p.Dist(s.center) - s.radius; d < bd {
			best, bd = s.joint, d
		}
	}
	return rig.JointID(best)
}
