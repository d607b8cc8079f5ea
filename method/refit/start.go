package refit

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/rig"
)

// What Animation starts from: the skeleton as bones, the rig's skin as
// weight slots, its clips (or rigid fits) as bone transforms.

// hierarchy is the skeleton as method/skinning's bones, hanging from
// body: bone j is joint j, heads in unit-sphere units. Joints are listed
// parents first, so index order is a root-to-leaves order; the joints
// above body are left out of Order (the fit leaves them as they are).
func hierarchy(sk *rig.Skeleton, heads []linalg.Vec3, body int) skinning.Hierarchy {
	n := sk.Len()
	h := skinning.Hierarchy{Parent: make([]int32, n), Head: append([]linalg.Vec3(nil), heads...)}
	in := make([]bool, n)
	for j, jt := range sk.Joints {
		h.Parent[j] = int32(jt.Parent)
		if j == body || (j > body && in[jt.Parent]) {
			in[j] = true
			h.Order = append(h.Order, int32(j))
		}
	}
	h.Parent[body] = -1
	h.Prior = append([]linalg.Vec3(nil), h.Head...)
	return h
}

// bodyRoot returns the first joint from joint 0 down that carries weight
// or does not have exactly one child, and marks the joints above it.
func bodyRoot(sk *rig.Skeleton, wb []int32) (int, []bool) {
	weighted := make([]bool, sk.Len())
	for _, j := range wb {
		if j >= 0 {
			weighted[j] = true
		}
	}
	ch := sk.Children()
	still := make([]bool, sk.Len())
	j := 0
	for !weighted[j] && len(ch[j]) == 1 {
		still[j] = true
		j = int(ch[j][0])
	}
	return j, still
}

// metricHeads lists the joints' rest heads.
func metricHeads(sk *rig.Skeleton) []linalg.Vec3 {
	out := make([]linalg.Vec3, sk.Len())
	for j, jt := range sk.Joints {
		out[j] = jt.Head
	}
	return out
}

// skinFits reports whether r's skin can start the fit.
func skinFits(r *rig.Rig) bool {
	return len(r.Skin) == len(r.Mesh.Verts) && r.Skin.Validate(r.Skeleton.Len()) == nil
}

// slots converts a skin to the model's weight slots.
func slots(skin rig.Skin) ([]int32, []float64) {
	wb := make([]int32, len(skin)*skinning.MaxK)
	ww := make([]float64, len(skin)*skinning.MaxK)
	for i, in := range skin {
		for k := 0; k < skinning.MaxK; k++ {
			wb[i*skinning.MaxK+k] = -1
			if in.Weight[k] > 0 {
				wb[i*skinning.MaxK+k], ww[i*skinning.MaxK+k] = int32(in.Joint[k]), in.Weight[k]
			}
		}
	}
	return wb, ww
}

// clipTransforms returns r's clips played in order as per-frame skin
// transforms in unit-sphere units (frame f joint j at f·J+j), or nil when
// the clips do not hold exactly frames frames or are invalid.
func clipTransforms(r *rig.Rig, frames int, us method.UnitSphere) []linalg.Affine {
	nj := r.Skeleton.Len()
	total := 0
	for k := range r.Clips {
		if r.Clips[k].Validate(nj) != nil {
			return nil
		}
		total += r.Clips[k].Frames
	}
	if total != frames || total == 0 {
		return nil
	}
	out := make([]linalg.Affine, 0, frames*nj)
	var pose, mats []linalg.Affine
	for k := range r.Clips {
		for f := 0; f < r.Clips[k].Frames; f++ {
			pose = r.Skeleton.Pose(&r.Clips[k], f, pose)
			mats = r.Skeleton.SkinMatrices(pose, mats)
			for _, m := range mats {
				out = append(out, toUnit(m, us))
			}
		}
	}
	return out
}

// toUnit maps a model-space transform x → Rx + T to unit-sphere units:
// x' = s(x−c) gives x' → Rx' + s(Rc + T − c).
func toUnit(m linalg.Affine, us method.UnitSphere) linalg.Affine {
	return linalg.Affine{M: m.M, T: m.M.MulVec(us.Center).Add(m.T).Sub(us.Center).Scale(us.Scale)}
}

// fromUnit is toUnit's inverse: x → Rx + (T'/s + c − Rc).
func fromUnit(m linalg.Affine, us method.UnitSphere) linalg.Affine {
	return linalg.Affine{M: m.M, T: m.T.Scale(1 / us.Scale).Add(us.Center).Sub(m.M.MulVec(us.Center))}
}

// rigidFits gives every joint, in every frame, the rigid transform that
// best maps its vertices (by weight) to the frame; a joint moving no
// vertex takes its parent's.
func rigidFits(p *skinning.Model, h skinning.Hierarchy) []linalg.Affine {
	m := p.FitWeighted()
	mass := p.BoneMass()
	for _, b := range h.Order {
		if pb := h.Parent[b]; pb >= 0 && mass[b] == 0 {
			for f := 0; f < p.F; f++ {
				m[f*p.B+int(b)] = m[f*p.B+int(pb)]
			}
		}
	}
	return m
}
