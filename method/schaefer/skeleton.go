package schaefer

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/spantree"
)

// connectivity returns the skeleton's edges (§5.1): every vertex votes
// its other bones' weights onto the edge to its heaviest bone (times the
// area around it when areaWeighted), and the maximum spanning tree of the
// votes is the skeleton. Bones no vote reaches (separate shells) are
// linked to the tree through their nearest bone.
func connectivity(m *skinning.Model, areas []float64, areaWeighted bool) []spantree.Edge {
	b := m.B
	votes := make([]float64, b*b)
	for i := 0; i < m.N; i++ {
		wb, ww := m.WB[i*skinning.MaxK:(i+1)*skinning.MaxK], m.WW[i*skinning.MaxK:(i+1)*skinning.MaxK]
		top := 0
		for s := range ww {
			if ww[s] > ww[top] {
				top = s
			}
		}
		scale := 1.0
		if areaWeighted {
			scale = areas[i]
		}
		for s := range ww {
			if s == top || wb[s] < 0 || ww[s] <= 0 {
				continue
			}
			x, y := min(wb[s], wb[top]), max(wb[s], wb[top])
			votes[int(x)*b+int(y)] += ww[s] * scale
		}
	}
	var edges []spantree.Edge
	for x := 0; x < b; x++ {
		for y := x + 1; y < b; y++ {
			if v := votes[x*b+y]; v > 0 {
				edges = append(edges, spantree.Edge{A: x, B: y, W: v})
			}
		}
	}
	cent := m.BoneCentroids()
	return spantree.Connect(b, spantree.Maximum(b, edges), func(x, y int) float64 { return cent[x].Dist(cent[y]) })
}

// rootBone returns the bone whose faces' center of mass is nearest the
// whole rest mesh's (§5.1); faces of bone -1 (dropped) count for the mesh only.
func rootBone(rest *mesh.Mesh, faceBone []int32, bones int) int32 {
	areas := mesh.FaceAreas(rest.Verts, rest.Tris)
	com := make([]linalg.Vec3, bones)
	mass := make([]float64, bones)
	var all linalg.Vec3
	var total float64
	for t, tr := range rest.Tris {
		c := rest.Verts[tr[0]].Add(rest.Verts[tr[1]]).Add(rest.Verts[tr[2]]).Scale(areas[t] / 3)
		all = all.Add(c)
		total += areas[t]
		if j := faceBone[t]; j >= 0 {
			com[j] = com[j].Add(c)
			mass[j] += areas[t]
		}
	}
	if total > 0 {
		all = all.Scale(1 / total)
	}
	best, bd := int32(0), math.Inf(1)
	for j := range com {
		if mass[j] == 0 {
			continue
		}
		if d := com[j].Scale(1 / mass[j]).Dist(all); d < bd {
			best, bd = int32(j), d
		}
	}
	return best
}

// jointPosition places the joint of bones a and b (§5.2): x̂ is the
// min-weight average of the vertices dominated by a or b, then Eq. 6
// moves it by the least-norm v minimizing Σ_k |(M_a,k − M_b,k)(x̂ + v)|²,
// through a pseudo-inverse, so a hinge keeps x̂'s position along its axis.
// Directions whose eigenvalue is under a fifth of the largest count as
// undetermined too: a joint that barely bends that way would otherwise be
// thrown far off the surface by noise.
func jointPosition(m *skinning.Model, a, b int32, fallback linalg.Vec3) linalg.Vec3 {
	var xhat linalg.Vec3
	var sum float64
	for i := 0; i < m.N; i++ {
		wb, ww := m.WB[i*skinning.MaxK:(i+1)*skinning.MaxK], m.WW[i*skinning.MaxK:(i+1)*skinning.MaxK]
		top, wa, wbb := 0, 0.0, 0.0
		for s := range ww {
			if ww[s] > ww[top] {
				top = s
			}
			switch wb[s] {
			case a:
				wa = ww[s]
			case b:
				wbb = ww[s]
			}
		}
		if wb[top] != a && wb[top] != b {
			continue
		}
		if w := math.Min(wa, wbb); w > 0 {
			xhat = xhat.Add(m.Rest[i].Scale(w))
			sum += w
		}
	}
	if sum == 0 {
		xhat = fallback
	} else {
		xhat = xhat.Scale(1 / sum)
	}
	var A linalg.Mat3
	var rhs linalg.Vec3
	for f := 0; f < m.F; f++ {
		ma, mb := m.M[f*m.B+int(a)], m.M[f*m.B+int(b)]
		dr := ma.M.Add(mb.M.Scale(-1))
		drt := dr.T()
		A = A.Add(drt.Mul(dr))
		rhs = rhs.Sub(drt.MulVec(dr.MulVec(xhat).Add(ma.T.Sub(mb.T))))
	}
	vals, vecs := linalg.SymEigen3(A)
	var v linalg.Vec3
	for k := 0; k < 3; k++ {
		if vals[k] <= 2e-1*vals[0] || vals[k] <= 0 {
			continue // along a hinge axis (or nearly): keep x̂ there
		}
		e := vecs.Col(k)
		v = v.Add(e.Scale(e.Dot(rhs) / vals[k]))
	}
	return xhat.Add(v)
}

// hierarchy roots the tree at root: every bone's head is the joint it
// shares with its parent; the root bone's head is its own center.
func hierarchy(m *skinning.Model, tree []spantree.Edge, root int32) skinning.Hierarchy {
	cent := m.BoneCentroids()
	h := skinning.Hierarchy{Parent: make([]int32, m.B), Head: make([]linalg.Vec3, m.B)}
	parent, order := spantree.Root(m.B, tree, int(root))
	for _, x := range order {
		h.Order = append(h.Order, int32(x))
		h.Parent[x] = int32(parent[x])
		if parent[x] < 0 {
			h.Head[x] = cent[x]
			continue
		}
		p := int32(parent[x])
		h.Head[x] = jointPosition(m, p, int32(x), cent[p].Add(cent[x]).Scale(0.5))
	}
	h.Prior = append([]linalg.Vec3(nil), h.Head...)
	return h
}
