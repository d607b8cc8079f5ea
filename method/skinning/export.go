package skinning

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// SkeletalRig builds the exported rig in unit-sphere units from the
// constrained transforms: Joint k is bone h.Order[k].
func (p *Model) SkeletalRig(h Hierarchy, s *seq.Sequence) *rig.Rig {
	id := make([]rig.JointID, p.B)
	sk := rig.Skeleton{Joints: make([]rig.Joint, len(h.Order))}
	for k, b := range h.Order {
		id[b] = rig.JointID(k)
		name := fmt.Sprintf("joint_%02d", k)
		parent := rig.NoParent
		if k == 0 {
			name = "root"
		} else {
			parent = id[h.Parent[b]]
		}
		sk.Joints[k] = rig.Joint{Name: name, Parent: parent, Head: h.Head[b]}
	}
	r := &rig.Rig{Skeleton: sk, Skin: p.Skin(id)}
	nj := sk.Len()
	mats := make([]linalg.Affine, 0, nj*p.F)
	for f := 0; f < p.F; f++ {
		row := make([]linalg.Affine, nj)
		for b := 0; b < p.B; b++ {
			row[id[b]] = p.M[f*p.B+b]
		}
		mats = append(mats, row...)
	}
	for _, c := range s.Clips {
		cl := rig.ClipFromSkinMatrices(&sk, c.Name, c.FPS, c.Len(), mats[c.Start*nj:c.End*nj])
		cl.MakeRigid(&sk)
		r.Clips = append(r.Clips, cl)
	}
	return r
}

// Skin converts the weight slots to a rig.Skin with Joint ids id[bone].
func (p *Model) Skin(id []rig.JointID) rig.Skin {
	s := make(rig.Skin, p.N)
	for i := range s {
		var in rig.Influence
		for k := 0; k < MaxK; k++ {
			if j := p.WB[i*MaxK+k]; j >= 0 {
				in.Joint[k] = id[j]
				in.Weight[k] = p.WW[i*MaxK+k]
			}
		}
		s[i] = in.Normalized()
	}
	return s
}

// FreeRig exports the bone transforms as the free form, in model units.
func (p *Model) FreeRig(s *seq.Sequence, us method.UnitSphere) (*rig.Rig, error) {
	id := make([]rig.JointID, p.B)
	for j := range id {
		id[j] = rig.JointID(j)
	}
	skin := p.Skin(id)
	var out *rig.Rig
	for _, c := range s.Clips {
		tr := make([]linalg.Affine, 0, c.Len()*p.B)
		for f := c.Start; f < c.End; f++ {
			for j := 0; j < p.B; j++ {
				// x' = s(x−c): M(x) = M'(s(x−c))/s + c = R x + (T'/s + c − R c).
				m := p.M[f*p.B+j]
				tr = append(tr, linalg.Affine{M: m.M, T: m.T.Scale(1 / us.Scale).Add(us.Center).Sub(m.M.MulVec(us.Center))})
			}
		}
		r, err := rig.NewFree(s.Rest, skin, p.B, c.Name, c.FPS, c.Len(), tr)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = r
		} else {
			out.Clips = append(out.Clips, r.Clips[0])
		}
	}
	return out, out.Validate()
}
