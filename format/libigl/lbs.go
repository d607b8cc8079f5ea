package libigl

import (
	"fmt"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// Transforms reads bone transforms in libigl's LBS layout (igl::lbs_matrix):
// a (4·bones)×3 matrix whose block k is the transpose of [A|t], rows
// A's columns then t, so that a rest point v goes to [v 1]·T_k = A v + t.
// The .Tmat pose files hold this matrix as a text table.
func Transforms(m *Matrix) ([]linalg.Affine, error) {
	if m.Cols != 3 || m.Rows%4 != 0 || m.Rows == 0 {
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

// AnimationFrame reads frame f (0-based) of a libigl animation matrix:
// (12·bones)×frames, column f being that frame's (4·bones)×3 Transforms
// matrix stored column-major (libigl maps it in place, as its Direct
// Delta Mush tutorial does with elephant-anim.dmat).
func AnimationFrame(anim *Matrix, f int) ([]linalg.Affine, error) {
	if anim.Rows%12 != 0 || anim.Rows == 0 {
		return nil, fmt.Errorf("animation: %d rows, want 12 per bone", anim.Rows)
	}
	if f < 0 || f >= anim.Cols {
		return nil, fmt.Errorf("animation: frame %d of %d", f+1, anim.Cols)
	}
	col := &Matrix{Rows: anim.Rows / 3, Cols: 3, Data: anim.Data[f*anim.Rows : (f+1)*anim.Rows]}
	return Transforms(col)
}

// Deform is libigl's linear blend skinning with every weight of w (a
// #verts×#bones matrix) and one transform per bone: vertex i goes to
// Σ_k w(i,k)·tr[k](v_i), without meshrig's four-influence limit and
// without renormalizing the weights.
func Deform(verts []linalg.Vec3, w *Matrix, tr []linalg.Affine) ([]linalg.Vec3, error) {
	if w.Rows != len(verts) || w.Cols != len(tr) {
		return nil, fmt.Errorf("deform: %d×%d weights for %d vertices and %d bone transforms", w.Rows, w.Cols, len(verts), len(tr))
	}
	out := make([]linalg.Vec3, len(verts))
	// Σ_k w_k (A_k v + t_k) = (Σ_k w_k A_k) v + Σ_k w_k t_k: blend the
	// matrices, then apply once. Vertices are independent.
	par.For(len(verts), 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var m linalg.Affine
			for k := range tr {
				x := w.Data[k*w.Rows+i]
				if x == 0 {
					continue
				}
				m.M = m.M.Add(tr[k].M.Scale(x))
				m.T = m.T.Add(tr[k].T.Scale(x))
			}
			out[i] = m.Apply(verts[i])
		}
	})
	return out, nil
}
