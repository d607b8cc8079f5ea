package forcefield

import (
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
	canon := make(map[linalg.Vec3]int, len(m.Verts))
	idx := make([]int, len(m.Verts))
	var verts []linalg.Vec3
	for i, p := range m.Verts {
		c, ok := canon[p]
		if !ok {
			c = len(verts)
			canon[p] = c
			verts = append(verts, p)
		}
		idx[i] = c
	}
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
