package skinweights

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// geodesic binds every vertex to the S = min(maxInf, joints) joints
// nearest along the surface, with the Laplacian-contraction paper's
// weights (§6.1, Eq. 5–6):
//
//	gd(i, k) = D[i, j] + ‖C_k − v_j‖,  v_j the vertex nearest joint C_k,
//	weight(i, k) = (1/gd(i, k)) / Σ_{k' ∈ S} 1/gd(i, k'),
//
// where D is the shortest-path distance over mesh edges. The paper fills
// D for all pairs by Floyd–Warshall (O(N³)); only the rows of the joints'
// nearest vertices are needed, so one Dijkstra per joint (in parallel)
// gives them in O(J·E log N). A joint's nearest vertex is taken in every
// connected component, so a vertex on a separate shell (an eye) is
// reached from the joints nearest that shell instead of from none.
func geodesic(m *mesh.Mesh, pos, joints []linalg.Vec3, maxInf int) rig.Skin {
	top := mesh.NewTopology(m)
	n, nj, nc := len(pos), len(joints), top.NumComponents
	// Per component and joint, the nearest vertex and its distance.
	src := make([]int, nc*nj)
	srcD := make([]float64, nc*nj)
	for k := range srcD {
		srcD[k] = math.Inf(1)
	}
	for i, p := range pos {
		c := top.Component[i]
		for k, q := range joints {
			if d := p.Dist(q); d < srcD[c*nj+k] {
				src[c*nj+k], srcD[c*nj+k] = i, d
			}
		}
	}
	gd := make([]float64, nj*n)
	par.For(nj, 1, func(lo, hi int) {
		var h distHeap
		for k := lo; k < hi; k++ {
			d := gd[k*n : (k+1)*n]
			for i := range d {
				d[i] = math.Inf(1)
			}
			h = h[:0]
			for c := 0; c < nc; c++ {
				i := src[c*nj+k]
				d[i] = srcD[c*nj+k]
				h.push(item{d[i], int32(i)})
			}
			dijkstra(top, pos, d, &h)
		}
	})
	s := min(maxInf, nj)
	skin := make(rig.Skin, n)
	par.For(n, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var near nearestK
			near.init(s)
			for k := 0; k < nj; k++ {
				near.offer(k, gd[k*n+i])
			}
			var in rig.Influence
			for x := 0; x < s; x++ {
				in.Joint[x] = rig.JointID(near.j[x])
				in.Weight[x] = 1 / near.d[x]
			}
			if near.d[0] == 0 { // on the joint's nearest vertex, on the joint
				in = rig.Influence{Joint: [4]rig.JointID{in.Joint[0]}, Weight: [4]float64{1}}
			}
			skin[i] = in.Normalized()
		}
	})
	return skin
}

// dijkstra settles the shortest edge-path distances d from the sources
// already in h (with their distances in d), edges weighed by length.
func dijkstra(top *mesh.Topology, pos []linalg.Vec3, d []float64, h *distHeap) {
	for len(*h) > 0 {
		it := h.pop()
		u := int(it.v)
		if it.d > d[u] {
			continue // a stale entry: u was reached more cheaply since
		}
		for _, v := range top.Neighbors(u) {
			if nd := it.d + pos[u].Dist(pos[v]); nd < d[v] {
				d[v] = nd
				h.push(item{nd, int32(v)})
			}
		}
	}
}

// item is a vertex v at tentative distance d.
type item struct {
	d float64
	v int32
}

// distHeap is a binary min-heap on d with lazy deletion: a vertex is
// pushed again when its distance drops and stale entries are skipped.
type distHeap []item

func (h *distHeap) push(it item) {
	*h = append(*h, it)
	a := *h
	for x := len(a) - 1; x > 0; {
		p := (x - 1) / 2
		if a[p].d <= a[x].d {
			break
		}
		a[p], a[x] = a[x], a[p]
		x = p
	}
}

func (h *distHeap) pop() item {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for x := 0; ; {
		l, r, m := 2*x+1, 2*x+2, x
		if l < len(a) && a[l].d < a[m].d {
			m = l
		}
		if r < len(a) && a[r].d < a[m].d {
			m = r
		}
		if m == x {
			break
		}
		a[m], a[x] = a[x], a[m]
		x = m
	}
	*h = a
	return top
}
