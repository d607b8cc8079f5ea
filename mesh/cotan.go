package mesh

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/linalg/sparse"
)

// Cotan returns the cotangent Laplacian of the triangles over positions
// pos, as the positive semi-definite N×N matrix L with
// L_ij = −(cot α_ij + cot β_ij)/2 for each edge and L_ii = −Σ_j L_ij (the
// negated discrete Laplace–Beltrami operator without the mass matrix).
// Cotangents are clamped to [−1e3, 1e3] so a degenerate triangle cannot
// produce an infinite entry.
func Cotan(pos []linalg.Vec3, tris [][3]int) *sparse.CSR {
	return cotan(pos, tris, -1e3)
}

// CotanPositive is Cotan with negative cotangents (obtuse angles) taken
// as zero: every off-diagonal weight is non-negative, so L + D is
// positive definite for any positive diagonal D even on badly shaped
// meshes — the robust choice for diffusion (bone heat).
func CotanPositive(pos []linalg.Vec3, tris [][3]int) *sparse.CSR {
	return cotan(pos, tris, 0)
}

func cotan(pos []linalg.Vec3, tris [][3]int, lo float64) *sparse.CSR {
	var t sparse.Triplets
	for _, f := range tris {
		for k := 0; k < 3; k++ {
			i, j, o := f[(k+1)%3], f[(k+2)%3], f[k]
			u, v := pos[i].Sub(pos[o]), pos[j].Sub(pos[o])
			sin := u.Cross(v).Norm()
			cot := 0.0
			if sin > 0 {
				cot = math.Max(lo, math.Min(1e3, u.Dot(v)/sin))
			}
			w := cot / 2
			t.Add(i, j, -w)
			t.Add(j, i, -w)
			t.Add(i, i, w)
			t.Add(j, j, w)
		}
	}
	return t.CSR(len(pos))
}

// Mass returns the lumped (barycentric) mass of every vertex: a third of
// the area of its triangles.
func Mass(pos []linalg.Vec3, tris [][3]int) []float64 {
	m := make([]float64, len(pos))
	for t, a := range FaceAreas(pos, tris) {
		for _, i := range tris[t] {
			m[i] += a / 3
		}
	}
	return m
}
