package fbx

import (
	"fmt"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// truth turns the file's skins into a rig.Rig: joints are the clusters'
// links and their LimbNode/Limb/Null ancestors, plus a still "root" at
// the origin when they form a forest. Each joint's rest orientation is
// the identity (the rig's convention): its head is the translation of its
// bind matrix and its LBS transform at a time is
// G(t)·Transform·bind⁻¹ for links (bind the mesh's bind placement; this is
// G(t)·TransformLink⁻¹ when the file is consistent) and G(t)·B⁻¹ for the
// others (B from the bind pose, else the rest transform).
type truth struct {
	skel  rig.Skeleton
	model []int           // joint → hierarchy index; -1 for the still root
	bindI []linalg.Affine // joint → the matrix after G(t) in its LBS transform
	skin  rig.Skin
}

// jointTypes are the Model types that can carry a skeleton's joints.
var jointTypes = map[string]bool{"LimbNode": true, "Limb": true, "Null": true, "Root": true, "Skeleton": true}

// boneTypes are the Model types that are a skeleton's joints by
// themselves, without a skin naming them (Null is a joint only as an
// ancestor of one).
var boneTypes = map[string]bool{"LimbNode": true, "Limb": true, "Root": true, "Skeleton": true}

// newTruth returns nil when some mesh is skinned and another is not, or
// when no mesh is skinned and no model is a bone. With no skin at all the
// bone models (boneTypes) and their skeleton-node ancestors are the
// joints, placed by the bind pose (else their rest transforms), and skin
// stays nil: a skeleton with its motion, not a rig.
func newTruth(s *sceneData, pose map[int64]linalg.Affine, restGlobal []linalg.Affine) (*truth, error) {
	h := s.h
	slot := map[int]int{} // hierarchy index → joint
	t := &truth{}
	skinned := 0
	for _, p := range s.parts {
		if len(p.clusters) > 0 {
			skinned++
		}
	}
	if skinned != 0 && skinned != len(s.parts) {
		return nil, nil
	}
	add := func(mi int, after linalg.Affine) {
		slot[mi] = len(t.model)
		t.model = append(t.model, mi)
		t.bindI = append(t.bindI, after)
	}
	heads := []linalg.Vec3{}
	if skinned == 0 {
		for mi, o := range h.models {
			if !boneTypes[o.Type] {
				continue
			}
			b, ok := pose[o.ID]
			if !ok {
				b = restGlobal[mi]
			}
			bi, ok := b.Inverse()
			if !ok {
				return nil, fmt.Errorf("joint %q: its bind matrix is singular", o.Name)
			}
			add(mi, bi)
			heads = append(heads, b.T)
		}
		if len(t.model) == 0 {
			return nil, nil
		}
	}
	for _, p := range s.parts {
		pinv, ok := p.bind.Inverse()
		if !ok {
			return nil, fmt.Errorf("mesh %q: its bind placement is singular", h.models[p.model].Name)
		}
		for _, c := range p.clusters {
			mi := h.index[c.Link.ID]
			if _, ok := slot[mi]; ok {
				continue
			}
			add(mi, c.Transform.Mul(pinv))
			heads = append(heads, c.TransformLink.T)
		}
	}
	// Ancestors that are skeleton nodes join, placed by the bind pose.
	for k := 0; k < len(t.model); k++ {
		p := h.parent[t.model[k]]
		if p < 0 || !jointTypes[h.models[p].Type] {
			continue
		}
		if _, ok := slot[p]; ok {
			continue
		}
		b, ok := pose[h.models[p].ID]
		if !ok {
			b = restGlobal[p]
		}
		bi, ok := b.Inverse()
		if !ok {
			return nil, fmt.Errorf("joint %q: its bind matrix is singular", h.models[p].Name)
		}
		add(p, bi)
		heads = append(heads, b.T)
	}
	n := len(t.model)
	joints := make([]rig.Joint, n, n+1)
	names := map[string]bool{}
	roots := 0
	for j, mi := range t.model {
		parent := rig.NoParent
		for a := h.parent[mi]; a >= 0; a = h.parent[a] {
			if s, ok := slot[a]; ok {
				parent = rig.JointID(s)
				break
			}
		}
		if parent == rig.NoParent {
			roots++
		}
		joints[j] = rig.Joint{Name: unique(names, h.models[mi].Name, fmt.Sprintf("joint_%d", j)), Parent: parent, Head: heads[j].Add(linalg.Vec3{})}
	}
	if roots > 1 {
		for j := range joints {
			if joints[j].Parent == rig.NoParent {
				joints[j].Parent = rig.JointID(n)
			}
		}
		joints = append(joints, rig.Joint{Name: unique(names, "root", "root"), Parent: rig.NoParent})
		t.model = append(t.model, -1)
		t.bindI = append(t.bindI, linalg.IdentityAffine())
	}
	skel, perm, err := rig.Reorder(joints)
	if err != nil {
		return nil, fmt.Errorf("skeleton: %w", err)
	}
	t.skel = skel
	model, bindI := make([]int, len(t.model)), make([]linalg.Affine, len(t.bindI))
	for old, nw := range perm {
		model[nw], bindI[nw] = t.model[old], t.bindI[old]
	}
	t.model, t.bindI = model, bindI
	for mi, j := range slot {
		slot[mi] = int(perm[j])
	}
	if skinned == 0 {
		return t, nil
	}
	t.skin = make(rig.Skin, len(s.rest.Verts))
	type inf struct {
		j int
		w float64
	}
	var list []inf
	for _, p := range s.parts {
		per := make([][]inf, len(p.geo.Verts))
		for _, c := range p.clusters {
			j := slot[h.index[c.Link.ID]]
			for k, i := range c.Indexes {
				if w := c.Weights[k]; w > 0 {
					per[i] = append(per[i], inf{j, w})
				}
			}
		}
		for i, l := range per {
			// Merge a joint listed by two clusters, keep the four largest.
			list = list[:0]
			for _, x := range l {
				found := false
				for a := range list {
					if list[a].j == x.j {
						list[a].w += x.w
						found = true
					}
				}
				if !found {
					list = append(list, x)
				}
			}
			sort.SliceStable(list, func(a, b int) bool { return list[a].w > list[b].w })
			var in rig.Influence
			for k := 0; k < len(list) && k < rig.MaxInfluences; k++ {
				in.Joint[k], in.Weight[k] = rig.JointID(list[k].j), list[k].w
			}
			// An unweighted vertex stays with the root.
			t.skin[p.first+i] = in.Normalized()
		}
	}
	return t, nil
}

// mats writes into out every joint's LBS transform for the models' global
// transforms.
func (t *truth) mats(global []linalg.Affine, out []linalg.Affine) {
	for j, mi := range t.model {
		if mi < 0 {
			out[j] = linalg.IdentityAffine()
			continue
		}
		out[j] = global[mi].Mul(t.bindI[j])
	}
}

// unique returns name (or alt when empty), suffixed with underscores until
// it is new, and records it.
func unique(names map[string]bool, name, alt string) string {
	if name == "" {
		name = alt
	}
	for names[name] {
		name += "_"
	}
	names[name] = true
	return name
}
