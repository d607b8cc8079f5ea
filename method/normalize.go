package method

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// UnitSphere is the similarity x' = (x − Center)·Scale that puts a rest
// pose tightly inside the unit sphere around its bounding-box center.
// Method parameters (smoothness weights, regularizers) are defined in
// these units so they mean the same for every model size.
type UnitSphere struct {
	Center linalg.Vec3
	Scale  float64
}

// NewUnitSphere fits the rest positions.
func NewUnitSphere(rest []linalg.Vec3) UnitSphere {
	lo, hi := mesh.Bounds(rest)
	c := lo.Add(hi).Scale(0.5)
	var r float64
	for _, p := range rest {
		r = math.Max(r, p.Dist(c))
	}
	if r == 0 {
		r = 1
	}
	return UnitSphere{Center: c, Scale: 1 / r}
}

// To maps pts into the unit sphere, writing into out (allocated when short).
func (u UnitSphere) To(out, pts []linalg.Vec3) []linalg.Vec3 {
	if len(out) < len(pts) {
		out = make([]linalg.Vec3, len(pts))
	}
	out = out[:len(pts)]
	for i, p := range pts {
		out[i] = p.Sub(u.Center).Scale(u.Scale)
	}
	return out
}

// ToFrames maps a sequence's float32 frames (seq.Sequence.Frames) into
// the unit sphere as To maps points, into out (allocated when short): a
// float64 copy, for methods that work on one.
func (u UnitSphere) ToFrames(out []linalg.Vec3, pts []linalg.Vec3f) []linalg.Vec3 {
	if len(out) < len(pts) {
		out = make([]linalg.Vec3, len(pts))
	}
	out = out[:len(pts)]
	for i, p := range pts {
		out[i] = p.Vec3().Sub(u.Center).Scale(u.Scale)
	}
	return out
}

// From maps one point back to model units.
func (u UnitSphere) From(p linalg.Vec3) linalg.Vec3 { return p.Scale(1 / u.Scale).Add(u.Center) }

// RigFrom maps a rig built in unit-sphere units back to model units, in
// place: joint heads, root translations and bone offsets. mesh replaces the
// rig's (normalized) mesh.
func (u UnitSphere) RigFrom(r *rig.Rig, m *mesh.Mesh) {
	for j := range r.Skeleton.Joints {
		r.Skeleton.Joints[j].Head = u.From(r.Skeleton.Joints[j].Head)
	}
	n := r.Skeleton.Len()
	for c := range r.Clips {
		cl := &r.Clips[c]
		for k := range cl.Translation {
			if r.Skeleton.Joints[k%n].Parent == rig.NoParent {
				cl.Translation[k] = u.From(cl.Translation[k])
			} else {
				cl.Translation[k] = cl.Translation[k].Scale(1 / u.Scale)
			}
		}
	}
	r.Mesh = m
}
