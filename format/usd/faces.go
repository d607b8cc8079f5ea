package usd

import (
	"slices"

	"github.com/meshrig/meshrig/mesh"
)

// faces is the mesh as written: the polygons the input had when they
// can be (each polygon's triangles lie in one part, cover its vertices
// and agree on every per-corner value at each of its vertices), else the
// triangles.
type faces struct {
	counts []int // vertices per face
	verts  []int // face-vertex indices, face after face
	// corner gives, for each face-vertex, a triangle corner (3t+k) with
	// the same vertex in one of the face's triangles: where per-corner
	// attributes are read.
	corner []int
	// tri is one triangle of each face, for its part.
	tri []int
}

// newFaces lays out m's faces.
func newFaces(m *mesh.Mesh) *faces {
	if f := polyFaces(m); f != nil {
		return f
	}
	f := &faces{counts: make([]int, len(m.Tris)), verts: make([]int, 0, 3*len(m.Tris)),
		corner: make([]int, 0, 3*len(m.Tris)), tri: make([]int, len(m.Tris))}
	for t, tri := range m.Tris {
		f.counts[t], f.tri[t] = 3, t
		for k, v := range tri {
			f.verts = append(f.verts, v)
			f.corner = append(f.corner, 3*t+k)
		}
	}
	return f
}

// polyFaces returns m's polygons as faces, or nil when m has none or its
// triangles do not map onto them.
func polyFaces(m *mesh.Mesh) *faces {
	if m.PolyStart == nil || len(m.TriPoly) != len(m.Tris) {
		return nil
	}
	np := m.NumPolys()
	byPoly := make([][]int, np)
	for t, p := range m.TriPoly {
		if p < 0 || p >= np {
			return nil
		}
		byPoly[p] = append(byPoly[p], t)
	}
	s := m.Surface
	var corners [][]int32 // the per-corner attributes' indices
	if s != nil {
		for k := range s.UVs {
			corners = append(corners, s.UVs[k].Index)
		}
		for k := range s.Colors {
			corners = append(corners, s.Colors[k].Index)
		}
		if s.Normals != nil {
			corners = append(corners, s.Normals.Index)
		}
		corners = slices.DeleteFunc(corners, func(idx []int32) bool { return idx == nil })
	}
	f := &faces{counts: make([]int, np), tri: make([]int, np)}
	for p := 0; p < np; p++ {
		tris := byPoly[p]
		if len(tris) == 0 {
			return nil
		}
		f.tri[p] = tris[0]
		if s != nil {
			for _, t := range tris {
				if s.Part(t) != s.Part(tris[0]) {
					return nil
				}
			}
		}
		poly := m.Poly(p)
		f.counts[p] = len(poly)
		at := make(map[int]int, len(poly)) // vertex → its first corner among the polygon's triangles
		for _, t := range tris {
			for k, w := range m.Tris[t] {
				if _, ok := at[w]; !ok {
					at[w] = 3*t + k
				}
			}
		}
		// A face-vertex has one value of each per-corner attribute: the
		// polygon's triangles must agree on it.
		for _, t := range tris {
			for k, w := range m.Tris[t] {
				for _, idx := range corners {
					if idx[3*t+k] != idx[at[w]] {
						return nil
					}
				}
			}
		}
		for _, v := range poly {
			c, ok := at[v]
			if !ok {
				return nil
			}
			f.verts = append(f.verts, v)
			f.corner = append(f.corner, c)
		}
	}
	return f
}
