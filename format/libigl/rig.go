package libigl

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// Transforms reads bone transforms in libigl's LBS layout: a (4·B)×3
// matrix whose block k is [Aᵀ; tᵀ], so that v' = [v 1]·T_k = A v + t.
func Transforms(m *Matrix) ([]linalg.Affine, error) {
	if m.Cols != 3 || m.Rows%4 != 0 {
		return nil, fmt.Errorf("transforms: %d×%d matrix, want (4·bones)×3", m.Rows, m.Cols)
	}
	out := make([]linalg.Affine, m.Rows/4)
	for k := range out {
		for c := 0; c < 3; c++ {
			for r := 0; r < 3; r++ {
				out[k].M[c][r] = m.At(4*k+r, c)
			}
			out[k].T[c] = m.At(4*k+3, c)
		}
	}
	return out, nil
}

// AnimationFrame reads frame f of an animation matrix whose column f is
// the frame's (4·B)×3 transform matrix stored column-major.
func AnimationFrame(anim *Matrix, f int) ([]linalg.Affine, error) {
	if f < 0 || f >= anim.Cols || anim.Rows%12 != 0 {
		return nil, fmt.Errorf("animation: frame %d of a %d×%d matrix", f, anim.Rows, anim.Cols)
	}
	col := &Matrix{Rows: anim.Rows / 3, Cols: 3, Data: anim.Data[f*anim.Rows : (f+1)*anim.Rows]}
	return Transforms(col)
}

// Deform applies linear blend skinning with every weight of w (an N×B
// matrix, one column per bone) and per-bone transforms: libigl's own
// replay, without meshrig's four-influence limit.
func Deform(verts []linalg.Vec3, w *Matrix, tr []linalg.Affine) []linalg.Vec3 {
	out := make([]linalg.Vec3, len(verts))
	for i, v := range verts {
		var s linalg.Vec3
		for k := range tr {
			if x := w.At(i, k); x != 0 {
				s = s.Add(tr[k].Apply(v).Scale(x))
			}
		}
		out[i] = s
	}
	return out
}

// Rig builds a meshrig rig from a TGF skeleton and per-bone weights
// (N×B). Bone k (a→b) becomes joint "bone_k" with its head at a and as
// parent the bone that ends at a; bones that start where no bone ends
// hang under a still joint "root" placed at the first such start. Weights
// keep the four largest per vertex, renormalized. It returns the rig (no
// clips) and, per bone, its joint.
func Rig(m *mesh.Mesh, t *TGF, w *Matrix) (*rig.Rig, []rig.JointID, error) {
	nb := len(t.Bones)
	if w.Rows != len(m.Verts) || w.Cols != nb {
		return nil, nil, fmt.Errorf("weights are %d×%d, want %d vertices × %d bones", w.Rows, w.Cols, len(m.Verts), nb)
	}
	ends := make(map[int]int) // joint → bone ending there
	for k := nb - 1; k >= 0; k-- {
		ends[t.Bones[k][1]] = k
	}
	joints := make([]rig.Joint, nb, nb+1)
	rootBones := 0
	for k, b := range t.Bones {
		p, ok := ends[b[0]]
		parent := rig.JointID(p)
		if !ok {
			parent = rig.NoParent
			rootBones++
		}
		joints[k] = rig.Joint{Name: fmt.Sprintf("bone_%d", k), Parent: parent, Head: t.Joints[b[0]]}
	}
	if rootBones > 1 {
		var at linalg.Vec3
		for k := range joints {
			if joints[k].Parent == rig.NoParent {
				if at == (linalg.Vec3{}) {
					at = joints[k].Head
				}
				joints[k].Parent = rig.JointID(nb)
			}
		}
		joints = append(joints, rig.Joint{Name: "root", Parent: rig.NoParent, Head: at})
	}
	sk, perm, err := rig.Reorder(joints)
	if err != nil {
		return nil, nil, fmt.Errorf("skeleton: %w", err)
	}
	dense := make([]float64, len(m.Verts)*sk.Len())
	for i := range m.Verts {
		for k := 0; k < nb; k++ {
			dense[i*sk.Len()+int(perm[k])] = w.At(i, k)
		}
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: rig.FromDense(dense, len(m.Verts), sk.Len(), rig.MaxInfluences)}
	return r, perm[:nb], r.Validate()
}

// SkinMatrices lays out per-bone transforms as per-joint LBS matrices of
// r (identity for a synthetic root).
func SkinMatrices(r *rig.Rig, boneJoint []rig.JointID, tr []linalg.Affine) []linalg.Affine {
	out := make([]linalg.Affine, r.Skeleton.Len())
	for j := range out {
		out[j] = linalg.IdentityAffine()
	}
	for k, j := range boneJoint {
		out[j] = tr[k]
	}
	return out
}
