package rig

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/meshrig/meshrig/linalg"
)

// Clip is one animation: per frame, a local rotation and translation of
// every joint. Entry [f*J+j] is joint j at frame f.
type Clip struct {
	Name string
	// FPS is the sampling rate: frame f plays at time f/FPS seconds.
	FPS float64
	// Frames is the number of frames.
	Frames int
	// Rotation is the rotation of joint j relative to its parent's frame.
	Rotation []linalg.Quat
	// Translation is the position of joint j's head in its parent's frame:
	// for the root, in model space; for other joints of a skeletal rig,
	// always the rest offset (see Skeleton.Offset).
	Translation []linalg.Vec3
	// Scale, when not nil, is joint j's scale along its own local axes,
	// applied after its rotation as glTF's node transform composes them
	// (local = T·R·S) and inherited by its children, their offsets
	// included (squash and stretch, --stretch). nil means no scaling: a
	// rotation-only rig. Entries are finite and positive.
	Scale []linalg.Vec3
}

// HasScale reports whether the clip carries scale tracks.
func (c *Clip) HasScale() bool { return c.Scale != nil }

// ScaleAt returns joint j's scale at frame f (ones without scale tracks),
// with joints joints in the skeleton.
func (c *Clip) ScaleAt(f, j, joints int) linalg.Vec3 {
	if c.Scale == nil {
		return linalg.Vec3{1, 1, 1}
	}
	return c.Scale[f*joints+j]
}

// NewClip returns a clip of frames frames in the rest pose: identity
// rotations and rest offsets.
func NewClip(s *Skeleton, name string, fps float64, frames int) Clip {
	j := s.Len()
	c := Clip{Name: name, FPS: fps, Frames: frames,
		Rotation:    make([]linalg.Quat, frames*j),
		Translation: make([]linalg.Vec3, frames*j),
	}
	for f := 0; f < frames; f++ {
		for k := 0; k < j; k++ {
			c.Rotation[f*j+k] = linalg.IdentityQuat
			c.Translation[f*j+k] = s.Offset(JointID(k))
		}
	}
	return c
}

// unitTol is how far from 1 a rotation's squared length may be.
const unitTol = 1e-6

// Validate checks the sizes against a skeleton of joints joints, that the
// name is UTF-8 (possibly empty), the frame rate positive and finite,
// every rotation a unit quaternion and every translation finite.
func (c *Clip) Validate(joints int) error {
	if c.Frames <= 0 {
		return fmt.Errorf("clip %q has no frames", c.Name)
	}
	if !utf8.ValidString(c.Name) {
		return fmt.Errorf("clip name %q is not valid UTF-8", c.Name)
	}
	if len(c.Rotation) != c.Frames*joints || len(c.Translation) != c.Frames*joints {
		return fmt.Errorf("clip %q: %d rotations and %d translations for %d frames × %d joints",
			c.Name, len(c.Rotation), len(c.Translation), c.Frames, joints)
	}
	if c.Scale != nil && len(c.Scale) != c.Frames*joints {
		return fmt.Errorf("clip %q: %d scales for %d frames × %d joints", c.Name, len(c.Scale), c.Frames, joints)
	}
	if !(c.FPS > 0) || math.IsInf(c.FPS, 0) {
		return fmt.Errorf("clip %q: frame rate %v is not a positive number", c.Name, c.FPS)
	}
	for k, q := range c.Rotation {
		// FK and the writers take the quaternion as a rotation: it must
		// be one (unit length, up to rounding).
		if n := q.Dot(q); !(math.Abs(n-1) <= unitTol) {
			return fmt.Errorf("clip %q frame %d joint %d: rotation %v is not a unit quaternion", c.Name, k/joints+1, k%joints, q)
		}
		if !c.Translation[k].IsFinite() {
			return fmt.Errorf("clip %q frame %d joint %d: non-finite translation", c.Name, k/joints+1, k%joints)
		}
		if c.Scale != nil {
			// Zero or negative scales would collapse or mirror a bone:
			// no inverse for the children, no rotation for the writers.
			if sc := c.Scale[k]; !sc.IsFinite() || !(sc[0] > 0 && sc[1] > 0 && sc[2] > 0) {
				return fmt.Errorf("clip %q frame %d joint %d: scale %v is not finite and positive", c.Name, k/joints+1, k%joints, sc)
			}
		}
	}
	return nil
}

// Skeletal reports whether, in every frame, joint rotations and one root
// translation move the skeleton: every joint keeps its rest offset within
// tol (model units) except the root, or except the end of a chain of
// placement joints above the body — ancestors with one child each that
// keep their rest pose (offsets within tol, rotations within angleTol
// radians of none), as Fox.glb's hip under its two ground joints. Free
// bones under a still root, or a limb sliding off a still body, stretch
// a bone and are not skeletal.
func (c *Clip) Skeletal(s *Skeleton, tol, angleTol float64) bool {
	n := s.Len()
	children := make([]int, n)
	for _, jt := range s.Joints {
		if jt.Parent != NoParent {
			children[jt.Parent]++
		}
	}
	// placement[k]: joint k and its ancestors keep their rest pose, each
	// with one child, so k's only child may carry the root motion.
	placement := make([]bool, n)
	for f := 0; f < c.Frames; f++ {
		for k, jt := range s.Joints {
			off := c.Translation[f*n+k].Dist(s.Offset(JointID(k))) > tol
			q := c.Rotation[f*n+k]
			turned := 2*math.Sqrt(q.X*q.X+q.Y*q.Y+q.Z*q.Z) > angleTol // the angle, for small ones
			up := jt.Parent == NoParent || placement[jt.Parent]
			placement[k] = up && !off && !turned && children[k] == 1
			if off && jt.Parent != NoParent && !up {
				return false
			}
		}
	}
	return true
}

// Rigid reports whether every non-root joint keeps its rest offset in every
// frame, within tol (model units): whether the bones stay rigid.
func (c *Clip) Rigid(s *Skeleton, tol float64) bool {
	j := s.Len()
	for f := 0; f < c.Frames; f++ {
		for k := 1; k < j; k++ {
			if c.Translation[f*j+k].Dist(s.Offset(JointID(k))) > tol {
				return false
			}
		}
	}
	return true
}
