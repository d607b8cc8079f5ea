package rig

import "github.com/meshrig/meshrig/linalg"

// Pose writes into out (allocated when short) the global transform of every
// joint at frame f of clip c: G_j = G_parent ∘ T(translation_j) ∘ R(rotation_j),
// ∘ S(scale_j) when the clip has scale tracks (glTF 2.0 §3.5.3: a node's
// matrix is T·R·S and its children inherit it, scale included).
func (s *Skeleton) Pose(c *Clip, f int, out []linalg.Affine) []linalg.Affine {
	n := s.Len()
	if len(out) < n {
		out = make([]linalg.Affine, n)
	}
	out = out[:n]
	for j, jt := range s.Joints {
		var local linalg.Affine
		if c.Scale != nil {
			local = linalg.TRS(c.Translation[f*n+j], c.Rotation[f*n+j], c.Scale[f*n+j])
		} else {
			local = linalg.Rigid(c.Rotation[f*n+j], c.Translation[f*n+j])
		}
		if jt.Parent == NoParent {
			out[j] = local
		} else {
			out[j] = out[jt.Parent].Mul(local)
		}
	}
	return out
}

// RestPose returns the global joint transforms of the rest pose: pure
// translations to each head.
func (s *Skeleton) RestPose() []linalg.Affine {
	out := make([]linalg.Affine, s.Len())
	for j, jt := range s.Joints {
		out[j] = linalg.Translation(jt.Head)
	}
	return out
}

// SkinMatrices writes into out the LBS transform of every joint,
// M_j = G_j ∘ T(-Head_j), which maps rest-pose points to posed points.
func (s *Skeleton) SkinMatrices(pose []linalg.Affine, out []linalg.Affine) []linalg.Affine {
	n := s.Len()
	if len(out) < n {
		out = make([]linalg.Affine, n)
	}
	out = out[:n]
	for j, jt := range s.Joints {
		g := pose[j]
		out[j] = linalg.Affine{M: g.M, T: g.T.Sub(g.M.MulVec(jt.Head))}
	}
	return out
}
