package refit

import (
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/method/weld"
)

// ring lists, per vertex, the vertices whose joints its weight solve is
// offered: its one-ring on the mesh welded along its seams (method/weld),
// every copy of each welded vertex, so a mesh cut into pieces (Fox.glb is
// a triangle soup) still passes joints across its cuts. Vertex i's list
// is idx[start[i]:start[i+1]].
type ring struct {
	start, idx []int32
}

func (r *ring) of(i int) []int32 { return r.idx[r.start[i]:r.start[i+1]] }

// seamRing builds the ring of p's vertices; tris are p's triangles.
func seamRing(p *skinning.Model, tris [][3]int) ring {
	w := weld.Seams(p.Rest, p.Frames, tris, p.F, weld.Tolerance, weld.Tear)
	nw := len(w.Rest)
	top := mesh.NewTopology(&mesh.Mesh{Verts: w.Rest, Tris: w.Tris})
	// Copies of each welded vertex, CSR.
	cstart := make([]int32, nw+1)
	for _, v := range w.Of {
		cstart[v+1]++
	}
	for v := 0; v < nw; v++ {
		cstart[v+1] += cstart[v]
	}
	copies := make([]int32, len(w.Of))
	fill := append([]int32(nil), cstart[:nw]...)
	for i, v := range w.Of {
		copies[fill[v]] = int32(i)
		fill[v]++
	}
	r := ring{start: make([]int32, p.N+1)}
	for i, v := range w.Of {
		for _, c := range copies[cstart[v]:cstart[v+1]] {
			if int(c) != i {
				r.idx = append(r.idx, c)
			}
		}
		for _, nb := range top.Neighbors(int(v)) {
			r.idx = append(r.idx, copies[cstart[nb]:cstart[nb+1]]...)
		}
		r.start[i+1] = int32(len(r.idx))
	}
	return r
}
