package collada

import (
	"github.com/meshrig/meshrig/mesh"
)

// geometryOf writes the rest mesh: positions and area-weighted vertex
// normals, and the polygons as read — a polylist with vcount when the
// mesh kept polygons (so quads stay quads), triangles otherwise. Every
// corner indexes the vertex's own position and normal.
func geometryOf(m *mesh.Mesh, n namer) geometry {
	id := n.take("mesh", "", "-positions", "-positions-array", "-normals", "-normals-array", "-vertices")
	zero, one := 0, 1
	inputs := []input{
		{Semantic: "VERTEX", Source: "#" + id + "-vertices", Offset: &zero},
		{Semantic: "NORMAL", Source: "#" + id + "-normals", Offset: &one},
	}
	el := meshEl{
		Sources: []source{
			xyzSource(id+"-positions", m.Verts),
			xyzSource(id+"-normals", mesh.VertexNormals(m.Verts, m.Tris)),
		},
		Vertices: vertices{ID: id + "-vertices", Inputs: []input{{Semantic: "POSITION", Source: "#" + id + "-positions"}}},
	}
	var vcount, p []byte
	for k := 0; k < m.NumPolys(); k++ {
		poly := m.Poly(k)
		vcount = appendInts(vcount, len(poly))
		for _, i := range poly {
			p = appendInts(p, i, i)
		}
	}
	if m.PolyStart == nil {
		el.Triangles = &triangles{Count: len(m.Tris), Inputs: inputs, P: string(p)}
	} else {
		el.Polylist = &polylist{Count: m.NumPolys(), Inputs: inputs, VCount: string(vcount), P: string(p)}
	}
	return geometry{ID: id, Name: "mesh", Mesh: el}
}
