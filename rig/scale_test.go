package rig

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// A two-joint chain, the root turned 90° about z and scaled (2,1,1), the
// child scaled 3 uniformly: glTF inheritance by hand.
func TestPoseScaleByHand(t *testing.T) {
	s := Skeleton{Joints: []Joint{
		{Name: "root", Parent: NoParent, Head: linalg.Vec3{1, 0, 0}},
		{Name: "tip", Parent: 0, Head: linalg.Vec3{2, 0, 0}},
	}}
	c := NewClip(&s, "c", 30, 1)
	c.Rotation[0] = linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, math.Pi/2)
	c.Scale = []linalg.Vec3{{2, 1, 1}, {3, 3, 3}}
	if err := c.Validate(2); err != nil {
		t.Fatal(err)
	}
	pose := s.Pose(&c, 0, nil)
	// Root: T(1,0,0)·Rz90·S(2,1,1). Child offset (1,0,0) → scaled (2,0,0)
	// → rotated (0,2,0) → head (1,2,0).
	if d := pose[1].T.Dist(linalg.Vec3{1, 2, 0}); d > 1e-12 {
		t.Errorf("child head %v, want (1,2,0)", pose[1].T)
	}
	// A point one unit along the child's local x: (3,0,0) → (6,0,0) by the
	// root's scale → (0,6,0) rotated → (1,8,0).
	if d := pose[1].Apply(linalg.Vec3{1, 0, 0}).Dist(linalg.Vec3{1, 8, 0}); d > 1e-12 {
		t.Errorf("child point %v, want (1,8,0)", pose[1].Apply(linalg.Vec3{1, 0, 0}))
	}
	// Without scale tracks the pose is the rigid one, bit for bit.
	r := NewClip(&s, "c", 30, 1)
	r.Rotation[0] = c.Rotation[0]
	got := s.Pose(&r, 0, nil)
	want := linalg.Rigid(r.Rotation[0], r.Translation[0])
	if got[0] != want || got[1] != want.Mul(linalg.Rigid(r.Rotation[1], r.Translation[1])) {
		t.Errorf("rigid pose changed: %v", got)
	}
}

func TestValidateScale(t *testing.T) {
	s := Skeleton{Joints: []Joint{{Name: "root", Parent: NoParent}}}
	for _, bad := range [][]linalg.Vec3{{{1, 0, 1}}, {{1, -1, 1}}, {{math.NaN(), 1, 1}}, {{math.Inf(1), 1, 1}}, {}} {
		c := NewClip(&s, "c", 30, 1)
		c.Scale = bad
		if err := c.Validate(1); err == nil {
			t.Errorf("scale %v accepted", bad)
		}
	}
}
