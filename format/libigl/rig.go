package libigl

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// Rig builds a meshrig rig (skeleton and skin, no clips) from a TGF
// skeleton and per-bone weights w (#verts×#bones, one column per TGF
// bone, as libigl's skinning weights are).
//
// Bone k (joints a→b) becomes joint "bone_k" with its head at a; its
// parent is the bone that ends at a (the first in file order when several
// do). When more than one bone starts where no bone ends — libigl
// skeletons usually fan out from a root point with no bone of its own —
// those bones hang under a still joint "root" (weight 0) at the first such
// start. Joints are reordered parents first (rig.Reorder). Each vertex
// keeps its four largest weights, renormalized (rig.FromDense).
//
// It returns the rig and, per bone, its joint. A skeleton whose bones
// form a cycle, or weights of the wrong size, is an error.
func Rig(m *mesh.Mesh, t *TGF, w *Matrix) (*rig.Rig, []rig.JointID, error) {
	nb := len(t.Bones)
	if nb == 0 {
		return nil, nil, fmt.Errorf("skeleton has no bones")
	}
	if w.Rows != len(m.Verts) || w.Cols != nb {
		return nil, nil, fmt.Errorf("weights are %d×%d, want %d vertices × %d bones", w.Rows, w.Cols, len(m.Verts), nb)
	}
	for k, b := range t.Bones {
		if b[0] < 0 || b[1] < 0 || b[0] >= len(t.Joints) || b[1] >= len(t.Joints) || b[0] == b[1] {
			return nil, nil, fmt.Errorf("bone %d joins joints %d and %d (%d joints)", k, b[0], b[1], len(t.Joints))
		}
	}
	ends := make(map[int]int) // TGF joint → the first bone ending there
	for k := nb - 1; k >= 0; k-- {
		ends[t.Bones[k][1]] = k
	}
	joints := make([]rig.Joint, nb, nb+1)
	var roots []int
	for k, b := range t.Bones {
		parent := rig.NoParent
		if p, ok := ends[b[0]]; ok {
			parent = rig.JointID(p)
		} else {
			roots = append(roots, k)
		}
		joints[k] = rig.Joint{Name: fmt.Sprintf("bone_%d", k), Parent: parent, Head: t.Joints[b[0]]}
	}
	if len(roots) > 1 {
		for _, k := range roots {
			joints[k].Parent = rig.JointID(nb)
		}
		joints = append(joints, rig.Joint{Name: "root", Parent: rig.NoParent, Head: joints[roots[0]].Head})
	}
	sk, perm, err := rig.Reorder(joints)
	if err != nil {
		return nil, nil, fmt.Errorf("skeleton: %w", err)
	}
	nj := sk.Len()
	dense := make([]float64, len(m.Verts)*nj)
	for k := 0; k < nb; k++ {
		j := int(perm[k])
		for i, x := range w.Data[k*w.Rows : (k+1)*w.Rows] {
			dense[i*nj+j] = x
		}
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: rig.FromDense(dense, len(m.Verts), nj, rig.MaxInfluences)}
	if err := r.Validate(); err != nil {
		return nil, nil, err
	}
	return r, perm[:nb], nil
}

// SkinMatrices lays out one frame's per-bone transforms as per-joint LBS
// matrices of r (boneJoint from Rig): bone k's transform on joint
// boneJoint[k]. A synthetic root has no transform of its own; it gets the
// translation that carries its head where the first bone starting there
// (in file order) carries that point, so a forward-kinematic animation
// keeps every bone, the root's too, rigid.
func SkinMatrices(r *rig.Rig, boneJoint []rig.JointID, tr []linalg.Affine) ([]linalg.Affine, error) {
	if len(tr) != len(boneJoint) {
		return nil, fmt.Errorf("%d transforms for %d bones", len(tr), len(boneJoint))
	}
	nj := r.Skeleton.Len()
	out := make([]linalg.Affine, nj)
	set := make([]bool, nj)
	for k, j := range boneJoint {
		if j < 0 || int(j) >= nj || set[j] {
			return nil, fmt.Errorf("bone %d maps to joint %d of %d", k, j, nj)
		}
		out[j], set[j] = tr[k], true
	}
	for k, j := range boneJoint {
		p := r.Skeleton.Joints[j].Parent
		if p == rig.NoParent || set[p] {
			continue
		}
		h := r.Skeleton.Joints[p].Head
		if h == r.Skeleton.Joints[j].Head {
			out[p], set[p] = linalg.Translation(tr[k].Apply(h).Sub(h)), true
		}
	}
	for j := range out {
		if !set[j] {
			out[j] = linalg.IdentityAffine()
		}
	}
	return out, nil
}
