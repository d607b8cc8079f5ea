package rig

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// TestSkeletalAtFileTolerance: a rig as a float32 file gives it back —
// far from the origin, offsets and translations each rounded — is still
// skeletal (it was not at 1e-9 of the diagonal); a bone stretched by 1%
// of the diagonal there, or by 1e-5 of it near the origin, is not.
func TestSkeletalAtFileTolerance(t *testing.T) {
	round := func(v linalg.Vec3) linalg.Vec3 {
		return linalg.Vec3{float64(float32(v[0])), float64(float32(v[1])), float64(float32(v[2]))}
	}
	far := linalg.Vec3{1000.1, -2000.3, 500.7}
	r := bar(t)
	for i := range r.Mesh.Verts {
		r.Mesh.Verts[i] = round(r.Mesh.Verts[i].Add(far))
	}
	for j := range r.Skeleton.Joints {
		odd := linalg.Vec3{0.0137, -0.0291, 0.0071}.Scale(float64(j) * math.Sqrt2)
		r.Skeleton.Joints[j].Head = r.Skeleton.Joints[j].Head.Add(far).Add(odd)
	}
	c := &r.Clips[0]
	nj := r.Skeleton.Len()
	for f := 0; f < c.Frames; f++ {
		for j := 1; j < nj; j++ {
			// Written as a float32 offset...
			c.Translation[f*nj+j] = round(r.Skeleton.Offset(JointID(j)))
		}
	}
	for j := range r.Skeleton.Joints {
		// ...beside float32 inverse bind matrices, whence the heads.
		r.Skeleton.Joints[j].Head = round(r.Skeleton.Joints[j].Head)
	}
	if !r.Skeletal() {
		t.Fatal("a rig at float32 precision reported not skeletal")
	}
	d := 2.0 // the bar's diagonal
	c.Translation[1*nj+1] = c.Translation[1*nj+1].Add(linalg.Vec3{0.01 * d, 0, 0})
	if r.Skeletal() {
		t.Error("a bone stretched by 1% reported skeletal")
	}
	r = bar(t)
	c = &r.Clips[0]
	c.Translation[1*nj+1] = c.Translation[1*nj+1].Add(linalg.Vec3{1e-5 * d, 0, 0})
	if r.Skeletal() {
		t.Error("a bone stretched by 1e-5 reported skeletal")
	}
}

// TestClipSkeletalRootUnderPlacement: one joint may carry the root motion
// below still placement joints (Fox.glb's hip); two may not (free bones),
// nor a joint below a moving one.
func TestClipSkeletalRootUnderPlacement(t *testing.T) {
	// ground → placement → hip → {leg, arm}
	s := &Skeleton{Joints: []Joint{
		{Name: "ground", Parent: NoParent},
		{Name: "placement", Parent: 0},
		{Name: "hip", Parent: 1, Head: linalg.Vec3{0, 1, 0}},
		{Name: "leg", Parent: 2, Head: linalg.Vec3{0, 0.5, 0}},
		{Name: "arm", Parent: 2, Head: linalg.Vec3{0.5, 1, 0}},
	}}
	move := func(joints ...int) *Clip {
		c := NewClip(s, "walk", 30, 3)
		for f := 1; f < 3; f++ {
			for _, j := range joints {
				c.Translation[f*5+j] = c.Translation[f*5+j].Add(linalg.Vec3{0.1 * float64(f), 0, 0})
			}
		}
		return &c
	}
	turnPlacement := move(2)
	turnPlacement.Rotation[1*5+1] = linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 0}, 0.3)
	for _, c := range []struct {
		name string
		clip *Clip
		want bool
	}{
		{"still", move(), true},
		{"root moves", move(0), true},
		{"hip under still placement joints", move(2), true},
		{"hip and arm", move(2, 4), false},
		{"root and hip", move(0, 2), false},
		{"leg alone", move(3), false},
		{"hip under a turning placement joint", turnPlacement, false},
	} {
		if got := c.clip.Skeletal(s, 1e-9, 1e-9); got != c.want {
			t.Errorf("%s: Skeletal = %v, want %v", c.name, got, c.want)
		}
	}
}
