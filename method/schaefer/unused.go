package schaefer

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// unusedMass is the summed weight below which a bone carries less than
// one vertex.
const unusedMass = 1

// dropUnused removes the bones whose weights sum to less than unusedMass,
// then solves the weights again (§4) and returns the new influence maps;
// it returns allowed as it is when every bone carries a vertex. Such a
// bone is a cluster of a face or two whose vertices its neighbours
// explain (the low-poly Fox, welded): nothing places its joint, which the
// skeletal fit would fling far off. faceBone is renumbered, a dropped
// cluster's faces to -1. The heaviest bone always stays.
func dropUnused(m *skinning.Model, faceBone []int32, allowed [][]int32, k int) [][]int32 {
	for {
		mass := make([]float64, m.B)
		heaviest := 0
		for i, j := range m.WB {
			if j >= 0 {
				mass[j] += m.WW[i]
			}
		}
		for j := range mass {
			if mass[j] > mass[heaviest] {
				heaviest = j
			}
		}
		id := make([]int32, m.B) // old bone → new, -1 when dropped
		nb := 0
		for j := range mass {
			id[j] = -1
			if mass[j] >= unusedMass || j == heaviest {
				id[j] = int32(nb)
				nb++
			}
		}
		if nb == m.B {
			return allowed
		}
		M := make([]linalg.Affine, m.F*nb)
		for f := 0; f < m.F; f++ {
			for j, n := range id {
				if n >= 0 {
					M[f*nb+int(n)] = m.M[f*m.B+j]
				}
			}
		}
		for t, j := range faceBone {
			if j >= 0 {
				faceBone[t] = id[j]
			}
		}
		m.B, m.M = nb, M
		solveWeights(m, nil, k)
		allowed = influenceMaps(m)
		solveWeights(m, allowed, k)
	}
}
