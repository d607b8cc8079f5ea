package rig

import "github.com/meshrig/meshrig/linalg"

// ClipFromSkinMatrices converts per-frame LBS transforms (mats[f*J+j] maps
// rest-pose points of joint j to frame f) into a clip on skeleton s. Each
// joint's global rotation is the rotation nearest to its matrix's linear
// part; its head goes where its matrix sends it. Local translations
// therefore reproduce the head positions exactly even where bone lengths
// change: call MakeRigid afterwards for a skeletal rig.
func ClipFromSkinMatrices(s *Skeleton, name string, fps float64, frames int, mats []linalg.Affine) Clip {
	n := s.Len()
	c := Clip{Name: name, FPS: fps, Frames: frames,
		Rotation:    make([]linalg.Quat, frames*n),
		Translation: make([]linalg.Vec3, frames*n),
	}
	rot := make([]linalg.Quat, n)
	pos := make([]linalg.Vec3, n)
	for f := 0; f < frames; f++ {
		for j, jt := range s.Joints {
			m := mats[f*n+j]
			rot[j] = linalg.BestRotation(m.M)
			pos[j] = m.Apply(jt.Head)
			if jt.Parent == NoParent {
				c.Rotation[f*n+j] = rot[j]
				c.Translation[f*n+j] = pos[j]
				continue
			}
			pi := rot[jt.Parent].Conj()
			c.Rotation[f*n+j] = pi.Mul(rot[j]).Normalize()
			c.Translation[f*n+j] = pi.Rotate(pos[j].Sub(pos[jt.Parent]))
		}
	}
	return c
}

// MakeRigid sets every non-root joint's translation to its rest offset, so
// the clip moves the skeleton by rotations and the root translation only.
func (c *Clip) MakeRigid(s *Skeleton) {
	n := s.Len()
	for f := 0; f < c.Frames; f++ {
		for j := 1; j < n; j++ {
			c.Translation[f*n+j] = s.Offset(JointID(j))
		}
	}
}
