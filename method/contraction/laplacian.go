package contraction

import (
	"math"
	"slices"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/linalg/sparse"
)

// maxCot bounds the cotangents: a triangle the contraction has flattened
// to a needle (an angle under half a degree) has cotangents that grow
// without bound, and one such entry would swamp its rows.
const maxCot = 100

// laplacian is the cotangent Laplacian of a fixed triangle set at
// changing positions (the Collada paper's Eq. 1, Au et al. 2008 §3):
//
//	L_ij = ω_ij = cot α_ij + cot β_ij for an edge ij, L_ii = −Σ_k ω_ik,
//
// stored with the opposite sign, positive semi-definite. The pattern
// (edges plus diagonal) is built once; update refills the values.
type laplacian struct {
	l    *sparse.CSR
	tris [][3]int
	// For corner k of triangle t, the positions in Val of the entries
	// (i, j), (j, i), (i, i) and (j, j) of the edge ij opposite it.
	slot [][3][4]int32
}

func newLaplacian(n int, tris [][3]int) *laplacian {
	adj := make([][]int32, n)
	for _, f := range tris {
		for k := 0; k < 3; k++ {
			a, b := int32(f[k]), int32(f[(k+1)%3])
			if !slices.Contains(adj[a], b) {
				adj[a] = append(adj[a], b)
				adj[b] = append(adj[b], a)
			}
		}
	}
	rowPtr := make([]int, n+1)
	var col []int32
	for i := range adj {
		row := append(adj[i], int32(i))
		slices.Sort(row)
		col = append(col, row...)
		rowPtr[i+1] = len(col)
	}
	at := func(i, j int) int32 {
		row := col[rowPtr[i]:rowPtr[i+1]]
		k, _ := slices.BinarySearch(row, int32(j))
		return int32(rowPtr[i] + k)
	}
	lap := &laplacian{
		l:    &sparse.CSR{N: n, RowPtr: rowPtr, Col: col, Val: make([]float64, len(col))},
		tris: tris,
		slot: make([][3][4]int32, len(tris)),
	}
	for t, f := range tris {
		for k := 0; k < 3; k++ {
			i, j := f[(k+1)%3], f[(k+2)%3]
			lap.slot[t][k] = [4]int32{at(i, j), at(j, i), at(i, i), at(j, j)}
		}
	}
	return lap
}

// update computes L at positions pos. A triangle whose
// largest cotangent exceeds maxCot has all three scaled down together:
// each triangle's term (½·Σ cot·|u_i − u_j|², the Dirichlet energy of a
// linear function over it) stays positive semi-definite that way, as
// clamping one angle would not, so L stays positive semi-definite on a
// mesh of needles and W_L·L + W_H can be factored.
func (lap *laplacian) update(pos []linalg.Vec3) {
	clear(lap.l.Val)
	for t, f := range lap.tris {
		var cot [3]float64
		big := 0.0
		for k := 0; k < 3; k++ {
			o, i, j := f[k], f[(k+1)%3], f[(k+2)%3]
			u, v := pos[i].Sub(pos[o]), pos[j].Sub(pos[o])
			sin := u.Cross(v).Norm()
			if !(sin > 0) {
				big = math.Inf(1)
				break
			}
			cot[k] = u.Dot(v) / sin
			big = math.Max(big, math.Abs(cot[k]))
		}
		if math.IsInf(big, 1) {
			continue // a triangle with no area has no Dirichlet energy
		}
		scale := 1.0
		if big > maxCot {
			scale = maxCot / big
		}
		for k := 0; k < 3; k++ {
			w := scale * cot[k]
			s := lap.slot[t][k]
			lap.l.Val[s[0]] -= w
			lap.l.Val[s[1]] -= w
			lap.l.Val[s[2]] += w
			lap.l.Val[s[3]] += w
		}
	}
}
