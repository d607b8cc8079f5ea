package mesh

import "sort"

// Topology is the connectivity of a mesh, independent of positions.
type Topology struct {
	// Edges lists each undirected edge once, as (low, high) vertex indices,
	// sorted.
	Edges [][2]int
	// The one-ring of vertex i is Ring[RingStart[i]:RingStart[i+1]], sorted.
	RingStart []int
	Ring      []int
	// FaceAdj[t][k] is the triangle across the edge from corner k to
	// corner k+1 of triangle t, or -1 on a boundary. On a non-manifold edge
	// it is one of the other triangles.
	FaceAdj [][3]int
	// Component[i] is the connected component of vertex i, numbered from 0
	// in order of each component's lowest vertex.
	Component     []int
	NumComponents int
}

// NewTopology derives the connectivity of m.
func NewTopology(m *Mesh) *Topology {
	n := len(m.Verts)
	top := &Topology{}
	// Edges from triangles, each directed edge (a<b) once.
	type half struct{ a, b, tri, k int }
	hs := make([]half, 0, 3*len(m.Tris))
	for t, f := range m.Tris {
		for k := 0; k < 3; k++ {
			a, b := f[k], f[(k+1)%3]
			if a > b {
				a, b = b, a
			}
			hs = append(hs, half{a, b, t, k})
		}
	}
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].a != hs[j].a {
			return hs[i].a < hs[j].a
		}
		if hs[i].b != hs[j].b {
			return hs[i].b < hs[j].b
		}
		return hs[i].tri < hs[j].tri
	})
	top.FaceAdj = make([][3]int, len(m.Tris))
	for t := range top.FaceAdj {
		top.FaceAdj[t] = [3]int{-1, -1, -1}
	}
	for i := 0; i < len(hs); {
		j := i
		for j < len(hs) && hs[j].a == hs[i].a && hs[j].b == hs[i].b {
			j++
		}
		top.Edges = append(top.Edges, [2]int{hs[i].a, hs[i].b})
		// Link the faces sharing this edge in a cycle.
		if j-i > 1 {
			for k := i; k < j; k++ {
				next := hs[i+(k-i+1)%(j-i)]
				top.FaceAdj[hs[k].tri][hs[k].k] = next.tri
			}
		}
		i = j
	}
	top.link(n)
	return top
}

// EdgeTopology is the connectivity of n vertices joined by edges (each
// (low, high) once, sorted), without faces (FaceAdj nil): a graph made
// from a mesh, such as its vertices merged in pairs.
func EdgeTopology(n int, edges [][2]int) *Topology {
	t := &Topology{Edges: edges}
	t.link(n)
	return t
}

// link derives the one-rings and the components from t.Edges.
func (t *Topology) link(n int) {
	deg := make([]int, n)
	for _, e := range t.Edges {
		deg[e[0]]++
		deg[e[1]]++
	}
	t.RingStart = make([]int, n+1)
	for i := 0; i < n; i++ {
		t.RingStart[i+1] = t.RingStart[i] + deg[i]
	}
	t.Ring = make([]int, t.RingStart[n])
	fill := append([]int(nil), t.RingStart[:n]...)
	for _, e := range t.Edges {
		t.Ring[fill[e[0]]] = e[1]
		fill[e[0]]++
		t.Ring[fill[e[1]]] = e[0]
		fill[e[1]]++
	}
	for i := 0; i < n; i++ {
		sort.Ints(t.Ring[t.RingStart[i]:t.RingStart[i+1]])
	}
	t.components(n)
}

// Neighbors returns the one-ring of vertex i. The slice must not be modified.
func (t *Topology) Neighbors(i int) []int { return t.Ring[t.RingStart[i]:t.RingStart[i+1]] }

// components labels connected components with a union–find over edges.
func (t *Topology) components(n int) {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, e := range t.Edges {
		a, b := find(e[0]), find(e[1])
		if a != b {
			if a < b {
				parent[b] = a
			} else {
				parent[a] = b
			}
		}
	}
	t.Component = make([]int, n)
	label := make([]int, n)
	for i := range label {
		label[i] = -1
	}
	for i := 0; i < n; i++ {
		r := find(i)
		if label[r] < 0 {
			label[r] = t.NumComponents
			t.NumComponents++
		}
		t.Component[i] = label[r]
	}
}
