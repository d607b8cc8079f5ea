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

// ClipFromSampledSkinMatrices is the clip a reader makes of the skinning
// matrices it sampled from a file: with scale tracks (rig.Clip.Scale, as
// --stretch writes them) when some joint's linear part is not a rotation
// within tol and every one splits exactly into a rotation and a per-axis
// scale (ClipFromScaledSkinMatrices); otherwise rotations and
// translations (ClipFromSkinMatrices: the nearest rotations, as for
// rigid joints).
func ClipFromSampledSkinMatrices(s *Skeleton, name string, fps float64, frames int, mats []linalg.Affine, tol float64) Clip {
	for _, m := range mats {
		if d := m.M.T().Mul(m.M).Sub(linalg.Identity3()); maxAbs(d) > tol {
			if c, ok := ClipFromScaledSkinMatrices(s, name, fps, frames, mats, tol); ok {
				return c
			}
			break
		}
	}
	return ClipFromSkinMatrices(s, name, fps, frames, mats)
}

// ClipFromScaledSkinMatrices is ClipFromSkinMatrices for matrices whose
// joints also scale (glTF scale channels, rig.Clip.Scale): each joint's
// local linear part L_parent⁻¹·L_j is split into a rotation and a scale
// per local axis (its columns' lengths), its translation is
// L_parent⁻¹·(head_j − head_parent). ok is false when some local linear
// part is not a rotation times such a scale within tol (columns not
// orthogonal, a mirror, a collapsed axis): then no clip replays mats.
func ClipFromScaledSkinMatrices(s *Skeleton, name string, fps float64, frames int, mats []linalg.Affine, tol float64) (c Clip, ok bool) {
	n := s.Len()
	c = Clip{Name: name, FPS: fps, Frames: frames,
		Rotation:    make([]linalg.Quat, frames*n),
		Translation: make([]linalg.Vec3, frames*n),
		Scale:       make([]linalg.Vec3, frames*n),
	}
	pos := make([]linalg.Vec3, n)
	for f := 0; f < frames; f++ {
		for j, jt := range s.Joints {
			m := mats[f*n+j]
			pos[j] = m.Apply(jt.Head)
			loc, t := m.M, pos[j]
			if jt.Parent != NoParent {
				pinv, inv := mats[f*n+int(jt.Parent)].M.Inverse()
				if !inv {
					return Clip{}, false
				}
				loc, t = pinv.Mul(m.M), pinv.MulVec(pos[j].Sub(pos[jt.Parent]))
			}
			var sc linalg.Vec3
			rot := loc
			for k := 0; k < 3; k++ {
				sc[k] = loc.Col(k).Norm()
				if !(sc[k] > tol) {
					return Clip{}, false
				}
				for i := 0; i < 3; i++ {
					rot[i][k] /= sc[k]
				}
			}
			if d := rot.T().Mul(rot).Sub(linalg.Identity3()); maxAbs(d) > tol || rot.Det() < 0 {
				return Clip{}, false
			}
			c.Rotation[f*n+j] = linalg.BestRotation(rot).Normalize()
			c.Translation[f*n+j] = t
			c.Scale[f*n+j] = sc
		}
	}
	return c, true
}

func maxAbs(m linalg.Mat3) float64 {
	v := 0.0
	for i := range m {
		for k := range m[i] {
			v = max(v, m[i][k], -m[i][k])
		}
	}
	return v
}
