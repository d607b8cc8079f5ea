package forcefield

import (
	"slices"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// parts returns, per triangle of m, the separate part of the model it
// belongs to, and the number of open edges. Parts are the components of
// the mesh with coincident vertices welded: glTF and other real-time
// formats split vertices wherever normals or texture coordinates jump
// (Fox is stored one triangle per three vertices), and counting
// crossings per unwelded component would see hundreds of open shells in
// a closed character and mark whole columns of voxels inside.
func parts(m *mesh.Mesh) ([]int32, int) {
	idx, verts := coincident(m.Verts)
	// A triangle that welding collapses has no area: it joins nothing and
	// crosses no line, and the topology wants three distinct corners.
	w := &mesh.Mesh{Verts: verts}
	for _, f := range m.Tris {
		a, b, c := idx[f[0]], idx[f[1]], idx[f[2]]
		if a != b && b != c && a != c {
			w.Tris = append(w.Tris, [3]int{a, b, c})
		}
	}
	top := mesh.NewTopology(w)
	part := make([]int32, len(m.Tris))
	for t, f := range m.Tris {
		part[t] = int32(top.Component[idx[f[0]]])
	}
	open := 0
	for t := range w.Tris {
		for _, a := range top.FaceAdj[t] {
			if a < 0 {
				open++
			}
		}
	}
	return part, open
}

// coincident numbers the distinct positions of verts in order of first
// use: idx[i] is vertex i's position in the returned list of them.
func coincident(verts []linalg.Vec3) (idx []int, distinct []linalg.Vec3) {
	canon := make(map[linalg.Vec3]int, len(verts))
	idx = make([]int, len(verts))
	for i, p := range verts {
		c, ok := canon[p]
		if !ok {
			c = len(distinct)
			canon[p] = c
			distinct = append(distinct, p)
		}
		idx[i] = c
	}
	return idx, distinct
}

// uniqueFaces returns m's triangles without exact duplicates: a triangle
// whose corners, welded by position, are those of an earlier one in any
// order (the same face twice, either way round). Ray parity counts every
// crossing of such a pair twice, so a closed mesh stored with its faces
// doubled (a double-sided export) looks empty inside. It returns m.Tris
// itself when nothing is dropped, and the number dropped.
func uniqueFaces(m *mesh.Mesh) ([][3]int, int) {
	idx, _ := coincident(m.Verts)
	seen := make(map[[3]int]struct{}, len(m.Tris))
	var kept [][3]int
	for t, f := range m.Tris {
		key := [3]int{idx[f[0]], idx[f[1]], idx[f[2]]}
		slices.Sort(key[:])
		if _, dup := seen[key]; !dup {
			seen[key] = struct{}{}
			if kept != nil {
				kept = append(kept, f)
			}
			continue
		}
		if kept == nil {
			kept = append(make([][3]int, 0, len(m.Tris)-1), m.Tris[:t]...)
		}
	}
	if kept == nil {
		return m.Tris, 0
	}
	return kept, len(m.Tris) - len(kept)
}
