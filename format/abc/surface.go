package abc

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// surface builds the rest mesh's mesh.Surface: a part per object read
// (named by its path, no material), and the UV set and normals when every
// object has them, per triangle corner. UVs get v flipped to the Surface's
// top-down convention (Alembic's, like Maya's, points up); normals are
// turned by each object's transform at the first frame, as its positions
// are. world[k] is part k's transform at the first frame.
func surface(rest *mesh.Mesh, parts []Part, world []linalg.Affine) *mesh.Surface {
	s := &mesh.Surface{}
	for _, p := range parts {
		s.Parts = append(s.Parts, mesh.Part{Name: p.Path, Material: -1})
	}
	tris := len(rest.Tris)
	// Each triangle's polygon and the polygon's first corner: a triangle
	// fans from its polygon's first corner (mesh.New).
	start := make([]int, rest.NumPolys()+1)
	for k := 0; k < rest.NumPolys(); k++ {
		start[k+1] = start[k] + len(rest.Poly(k))
	}
	poly := func(t int) int {
		if rest.TriPoly == nil {
			return t
		}
		return rest.TriPoly[t]
	}
	first := make([]int, rest.NumPolys()) // first triangle of each polygon
	for t := tris - 1; t >= 0; t-- {
		first[poly(t)] = t
	}
	partOf := make([]int32, tris)
	k := 0
	for t := 0; t < tris; t++ {
		for poly(t) >= parts[k].FirstPoly+parts[k].Polys {
			k++
		}
		partOf[t] = int32(k)
	}
	if len(parts) > 1 {
		s.TriPart = partOf
	}
	// corner returns, for corner c (0-2) of triangle t, its polygon-corner
	// index within its part, the part's polygon and the mesh vertex.
	corner := func(t, c int) (pc, pp, v int) {
		p := poly(t)
		i := 0
		if c > 0 {
			i = t - first[p] + c
		}
		part := parts[partOf[t]]
		return start[p] + i - start[part.FirstPoly], p - part.FirstPoly, rest.Poly(p)[i]
	}
	pick := func(get func(Part) *Attribute) []*Attribute {
		var out []*Attribute
		for _, p := range parts {
			a := get(p)
			if a == nil || elemCount(a) < 0 {
				return nil
			}
			out = append(out, a)
		}
		return out
	}
	if uvs := pick(func(p Part) *Attribute { return p.UV }); uvs != nil {
		attr := mesh.Attr[[2]float32]{Name: "uv", Index: make([]int32, 3*tris)}
		base := make([]int, len(uvs))
		for k, a := range uvs {
			base[k] = len(attr.Values)
			for j := 0; j+1 < len(a.Values); j += 2 {
				attr.Values = append(attr.Values, [2]float32{a.Values[j], 1 - a.Values[j+1]})
			}
		}
		for t := 0; t < tris; t++ {
			for c := 0; c < 3; c++ {
				pc, pp, v := corner(t, c)
				k := partOf[t]
				attr.Index[3*t+c] = int32(base[k] + valueIndex(uvs[k], pc, pp, v-parts[k].FirstVert))
			}
		}
		s.UVs = append(s.UVs, attr)
	}
	if ns := pick(func(p Part) *Attribute { return p.Normals }); ns != nil {
		attr := mesh.Attr[[3]float32]{Name: "N", Index: make([]int32, 3*tris)}
		base := make([]int, len(ns))
		for k, a := range ns {
			base[k] = len(attr.Values)
			// Normals turn by the inverse transpose of the linear part.
			inv, ok := world[k].M.Inverse()
			if !ok {
				return s
			}
			nt := inv.T()
			for j := 0; j+2 < len(a.Values); j += 3 {
				n := nt.MulVec(linalg.Vec3{float64(a.Values[j]), float64(a.Values[j+1]), float64(a.Values[j+2])})
				if l := n.Norm(); l > 0 && !math.IsInf(l, 0) {
					n = n.Scale(1 / l)
				}
				attr.Values = append(attr.Values, [3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
			}
		}
		for t := 0; t < tris; t++ {
			for c := 0; c < 3; c++ {
				pc, pp, v := corner(t, c)
				k := partOf[t]
				attr.Index[3*t+c] = int32(base[k] + valueIndex(ns[k], pc, pp, v-parts[k].FirstVert))
			}
		}
		s.Normals = &attr
	}
	return s
}

// elemCount is the number of elements a's scope has values for per its
// indices, or -1 for a scope the Surface cannot place.
func elemCount(a *Attribute) int {
	switch a.Scope {
	case "fvr", "vtx", "var", "uni", "con":
		return len(a.Values) / a.Extent
	}
	return -1
}

// valueIndex is the value of a's element for polygon corner pc (within
// the part), polygon pp and vertex v.
func valueIndex(a *Attribute, pc, pp, v int) int {
	e := 0
	switch a.Scope {
	case "fvr":
		e = pc
	case "vtx", "var":
		e = v
	case "uni":
		e = pp
	}
	if a.Indices != nil {
		return int(a.Indices[e])
	}
	return e
}
