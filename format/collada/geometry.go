package collada

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// geometryOf writes the rest mesh: positions, normals (the mesh surface's
// own, else area-weighted vertex normals), every UV set of the surface as
// a TEXCOORD input (set k, v flipped back to COLLADA's bottom-up), and the
// polygons as read — a polylist with vcount when the mesh kept polygons
// (so quads stay quads), triangles otherwise — one element per part of
// the surface, named for its material's symbol (syms[part], "" for none).
// COLLADA indexes every input per corner, so per-corner values need no
// split vertices.
func geometryOf(m *mesh.Mesh, n namer, syms []string) geometry {
	id := n.take("mesh", "", "-positions", "-positions-array", "-normals", "-normals-array", "-vertices")
	s := m.Surface
	zero, one := 0, 1
	inputs := []input{
		{Semantic: "VERTEX", Source: "#" + id + "-vertices", Offset: &zero},
		{Semantic: "NORMAL", Source: "#" + id + "-normals", Offset: &one},
	}
	// Each input after VERTEX gives a corner its value index.
	corner := []func(t, k, v int) int{func(t, k, v int) int { return v }}
	el := meshEl{
		Sources:  []source{xyzSource(id+"-positions", m.Verts)},
		Vertices: vertices{ID: id + "-vertices", Inputs: []input{{Semantic: "POSITION", Source: "#" + id + "-positions"}}},
	}
	if s != nil && s.Normals != nil {
		nv := make([]linalg.Vec3, len(s.Normals.Values))
		for i, v := range s.Normals.Values {
			nv[i] = linalg.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}
		}
		el.Sources = append(el.Sources, xyzSource(id+"-normals", nv))
		corner = append(corner, indexOf(s.Normals))
	} else {
		el.Sources = append(el.Sources, xyzSource(id+"-normals", mesh.VertexNormals(m.Verts, m.Tris)))
		corner = append(corner, func(t, k, v int) int { return v })
	}
	if s != nil {
		for k := range s.UVs {
			uid := n.take(id+"-uv", "", "-array")
			off, set := 2+k, k
			inputs = append(inputs, input{Semantic: "TEXCOORD", Source: "#" + uid, Offset: &off, Set: &set})
			var b []byte
			for _, uv := range s.UVs[k].Values {
				b = appendFloats(b, float64(uv[0]), float64(1-uv[1]))
			}
			nv := len(s.UVs[k].Values)
			el.Sources = append(el.Sources, floatSource(uid, string(b), 2*nv, nv, 2, param{"S", "float"}, param{"T", "float"}))
			corner = append(corner, indexOf(&s.UVs[k]))
		}
	}
	appendCorner := func(p []byte, t, k, v int) []byte {
		for _, c := range corner {
			p = appendInts(p, c(t, k, v))
		}
		return p
	}
	nparts := 1
	part := func(int) int { return 0 }
	if s != nil && len(s.Parts) > 0 {
		nparts, part = len(s.Parts), s.Part
	}
	sym := func(p int) string {
		if p < len(syms) {
			return syms[p]
		}
		return ""
	}
	first, fan := fans(m)
	if m.PolyStart == nil || !fan {
		ps, counts := make([][]byte, nparts), make([]int, nparts)
		for t, tri := range m.Tris {
			p := part(t)
			for k, v := range tri {
				ps[p] = appendCorner(ps[p], t, k, v)
			}
			counts[p]++
		}
		for p := range ps {
			if counts[p] > 0 {
				el.Triangles = append(el.Triangles, triangles{Material: sym(p), Count: counts[p], Inputs: inputs, P: string(ps[p])})
			}
		}
		return geometry{ID: id, Name: "mesh", Mesh: el}
	}
	ps, vcounts, counts := make([][]byte, nparts), make([][]byte, nparts), make([]int, nparts)
	for k := 0; k < m.NumPolys(); k++ {
		poly, t0 := m.Poly(k), first[k]
		p := part(t0)
		vcounts[p] = appendInts(vcounts[p], len(poly))
		counts[p]++
		for j, v := range poly {
			// Fan triangle t0+i is (p0, p(i+1), p(i+2)): corner j of the
			// polygon is corner 0 or 1 of the first, or 2 of triangle j-2.
			switch j {
			case 0, 1:
				ps[p] = appendCorner(ps[p], t0, j, v)
			default:
				ps[p] = appendCorner(ps[p], t0+j-2, 2, v)
			}
		}
	}
	for p := range ps {
		if counts[p] > 0 {
			el.Polylist = append(el.Polylist, polylist{Material: sym(p), Count: counts[p], Inputs: inputs, VCount: string(vcounts[p]), P: string(ps[p])})
		}
	}
	return geometry{ID: id, Name: "mesh", Mesh: el}
}

// indexOf returns an attribute's value index at a corner.
func indexOf[T any](a *mesh.Attr[T]) func(t, k, v int) int {
	if a.PerCorner() {
		return func(t, k, v int) int { return int(a.Index[3*t+k]) }
	}
	return func(t, k, v int) int { return v }
}

// fans returns each polygon's first triangle and whether every polygon
// is the fan mesh.New makes of it, which per-corner values of triangles
// need to be laid on the polygon's corners.
func fans(m *mesh.Mesh) ([]int, bool) {
	if m.PolyStart == nil {
		return nil, true
	}
	first := make([]int, m.NumPolys())
	t := 0
	for k := range first {
		first[k] = t
		poly := m.Poly(k)
		for i := 1; i+1 < len(poly); i++ {
			if t >= len(m.Tris) || m.Tris[t] != [3]int{poly[0], poly[i], poly[i+1]} || m.TriPoly[t] != k {
				return nil, false
			}
			t++
		}
	}
	return first, t == len(m.Tris)
}
