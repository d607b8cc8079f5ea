package refit

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// export builds the result on a copy of r's skeleton (heads from the fit
// only with RefineJoints): the fitted weights (or r's skin, with Motion)
// and one clip per clip of s from the fitted transforms (or r's clips,
// with Weights). A joint whose subtree moves no vertex keeps its local
// rotation from r's clips when the fit started from them, else the
// identity: no data says how it turns.
func export(r *rig.Rig, s *seq.Sequence, p *skinning.Model, h skinning.Hierarchy, us method.UnitSphere, o Options, clipStart bool) *rig.Rig {
	nj := r.Skeleton.Len()
	body := int(h.Order[0])
	sk := rig.Skeleton{Joints: append([]rig.Joint(nil), r.Skeleton.Joints...)}
	if o.RefineJoints && o.Solve != Weights {
		for j := range sk.Joints {
			sk.Joints[j].Head = us.From(h.Head[j])
		}
	}
	out := &rig.Rig{Mesh: r.Mesh, Skeleton: sk}
	if o.Solve == Motion {
		out.Skin = append(rig.Skin(nil), r.Skin...)
	} else {
		id := make([]rig.JointID, nj)
		for j := range id {
			id[j] = rig.JointID(j)
		}
		out.Skin = p.Skin(id)
	}
	if o.Solve == Weights {
		for _, c := range r.Clips {
			c.Rotation = append([]linalg.Quat(nil), c.Rotation...)
			c.Translation = append([]linalg.Vec3(nil), c.Translation...)
			out.Clips = append(out.Clips, c)
		}
		return out
	}
	moving := subtreeMoves(out.Skin, &sk)
	var start []linalg.Quat // r's local rotations by frame of s, when the fit started from them
	if clipStart {
		for _, c := range r.Clips {
			start = append(start, c.Rotation...)
		}
	}
	clips := s.Clips
	if len(clips) == 0 {
		clips = []seq.Clip{{Name: "default", Start: 0, End: s.F(), FPS: 30}}
	}
	for _, c := range clips {
		mats := make([]linalg.Affine, 0, c.Len()*nj)
		for f := c.Start; f < c.End; f++ {
			for j := 0; j < nj; j++ {
				mats = append(mats, fromUnit(p.M[f*nj+j], us))
			}
		}
		cl := rig.ClipFromSkinMatrices(&sk, c.Name, c.FPS, c.Len(), mats)
		// Rigid bones: every joint below the root at its rest offset, but
		// the body root under placement joints, which translates.
		for f := 0; f < cl.Frames; f++ {
			for j := 1; j < nj; j++ {
				if j != body {
					cl.Translation[f*nj+j] = sk.Offset(rig.JointID(j))
				}
			}
		}
		for j := 0; j < nj; j++ {
			if moving[j] {
				continue
			}
			for f := 0; f < c.Len(); f++ {
				q := linalg.IdentityQuat
				if start != nil {
					q = start[(c.Start+f)*nj+j]
				}
				cl.Rotation[f*nj+j] = q
			}
		}
		out.Clips = append(out.Clips, cl)
	}
	return out
}

// subtreeMoves reports, per joint, whether it or a joint below it carries
// weight.
func subtreeMoves(skin rig.Skin, sk *rig.Skeleton) []bool {
	moving := make([]bool, sk.Len())
	for _, in := range skin {
		for k, w := range in.Weight {
			if w > 0 {
				moving[in.Joint[k]] = true
			}
		}
	}
	for j := sk.Len() - 1; j > 0; j-- {
		if moving[j] {
			moving[sk.Joints[j].Parent] = true
		}
	}
	return moving
}
