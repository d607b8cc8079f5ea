package fbx

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// corner locates one triangle corner in its part's geometry: the polygon
// and the polygon-vertex (PolygonVertexIndex position) it came from.
type corner struct {
	part, poly int
	pv         [3]int
}

// fanCorners returns the polygon-vertex positions of the triangles
// mesh.New makes of a part's polygons (fans from each polygon's first
// corner), in order.
func fanCorners(pi int, g *Geometry, out []corner) []corner {
	for k := 0; k+1 < len(g.PolyStart); k++ {
		s, e := g.PolyStart[k], g.PolyStart[k+1]
		for i := s + 1; i+1 < e; i++ {
			out = append(out, corner{pi, k, [3]int{s, i, i + 1}})
		}
	}
	return out
}

// element returns the index into a layer's mapped elements of corner pv
// of polygon poly, by the layer's mapping.
func (l *LayerElement) element(g *Geometry, poly, pv int) int {
	switch l.Mapping {
	case "ByPolygonVertex":
		return pv
	case "ByPolygon":
		return poly
	case "AllSame":
		return 0
	}
	return g.PolyVerts[pv] // by control point
}

// surfaceOf builds the Surface of the joined parts from their layers: UV
// sets by layer number (v flipped to glTF's top-left origin; a part
// without a set reads (0, 0)), colour sets likewise (colorsOf), the first normal layer when every part has
// one (turned by the part's bind placement), the models' materials by
// name with their diffuse colour, and a part per mesh model and
// material. It returns nil when there is nothing to keep.
func surfaceOf(f *File, h *hierarchy, parts []*part, tris []corner) *mesh.Surface {
	s := &mesh.Surface{}
	nuv := 0
	normals := true
	for _, p := range parts {
		nuv = max(nuv, len(p.geo.UVs))
		normals = normals && len(p.geo.Normals) > 0
	}
	for k := 0; k < nuv; k++ {
		a := mesh.Attr[[2]float32]{Index: make([]int32, 0, 3*len(tris))}
		base := make([]int32, len(parts))
		for pi, p := range parts {
			base[pi] = int32(len(a.Values))
			if k >= len(p.geo.UVs) {
				a.Values = append(a.Values, [2]float32{0, 1})
				continue
			}
			l := &p.geo.UVs[k]
			if a.Name == "" {
				a.Name = l.Name
			}
			for i := 0; i+1 < len(l.Values); i += 2 {
				a.Values = append(a.Values, [2]float32{float32(l.Values[i]), float32(1 - l.Values[i+1])})
			}
		}
		for _, c := range tris {
			p := parts[c.part]
			for _, pv := range c.pv {
				item := int32(0)
				if k < len(p.geo.UVs) {
					l := &p.geo.UVs[k]
					item = int32(l.Item(l.element(p.geo, c.poly, pv)))
				}
				a.Index = append(a.Index, base[c.part]+item)
			}
		}
		s.UVs = append(s.UVs, a)
	}
	s.Colors = colorsOf(parts, tris)
	if normals {
		a := mesh.Attr[[3]float32]{Index: make([]int32, 0, 3*len(tris))}
		base := make([]int32, len(parts))
		for pi, p := range parts {
			base[pi] = int32(len(a.Values))
			l := &p.geo.Normals[0]
			a.Name = l.Name
			// Normals turn with the inverse transpose of the placement.
			m := p.bind.Mul(p.geom).M
			inv, ok := m.Inverse()
			if !ok {
				inv = linalg.Identity3()
			}
			nt := inv.T()
			for i := 0; i+2 < len(l.Values); i += 3 {
				n := nt.MulVec(linalg.Vec3{l.Values[i], l.Values[i+1], l.Values[i+2]}).Unit()
				a.Values = append(a.Values, [3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
			}
		}
		for _, c := range tris {
			p := parts[c.part]
			l := &p.geo.Normals[0]
			for _, pv := range c.pv {
				a.Index = append(a.Index, base[c.part]+int32(l.Item(l.element(p.geo, c.poly, pv))))
			}
		}
		s.Normals = &a
	}
	// Materials and parts.
	matIndex := map[int64]int{}
	imgIndex := map[int64]int{}
	type key struct{ part, mat int }
	partIndex := map[key]int{}
	local := make([][]int, len(parts)) // part → its model's material slots → global
	for pi, p := range parts {
		for _, mo := range f.childrenOf(h.models[p.model], "Material") {
			g, ok := matIndex[mo.ID]
			if !ok {
				g = len(s.Materials)
				matIndex[mo.ID] = g
				mat := material(f, mo)
				if tex := diffuseTexture(f, mo); tex != nil {
					im, seen := imgIndex[tex.ID]
					if !seen {
						im = len(s.Images)
						imgIndex[tex.ID] = im
						s.Images = append(s.Images, readImage(f, tex))
					}
					// The texture gives the colour; the factor stays white.
					mat.BaseColor = [4]float32{1, 1, 1, mat.BaseColor[3]}
					mat.BaseColorTexture = &mesh.TextureRef{Image: im, UVSet: uvSetOf(f, tex, s), Scale: 1}
				}
				s.Materials = append(s.Materials, mat)
			}
			local[pi] = append(local[pi], g)
		}
	}
	triPart := make([]int32, len(tris))
	for t, c := range tris {
		p := parts[c.part]
		m := -1
		if len(local[c.part]) > 0 {
			slot := 0
			if len(p.geo.Materials) > 0 {
				l := &p.geo.Materials[0]
				slot = l.Item(l.element(p.geo, c.poly, c.pv[0]))
			}
			if slot < len(local[c.part]) {
				m = local[c.part][slot]
			}
		}
		k := key{c.part, m}
		idx, ok := partIndex[k]
		if !ok {
			idx = len(s.Parts)
			partIndex[k] = idx
			s.Parts = append(s.Parts, mesh.Part{Name: h.models[p.model].Name, Material: m})
		}
		triPart[t] = int32(idx)
	}
	if len(s.Parts) > 1 {
		s.TriPart = triPart
	}
	if len(s.UVs) == 0 && len(s.Colors) == 0 && s.Normals == nil && len(s.Materials) == 0 && len(s.Parts) <= 1 {
		return nil
	}
	return s
}

// material reads a Material object: its name and diffuse colour (times
// its factor), opacity from TransparencyFactor, not metallic.
func material(f *File, o *Object) mesh.Material {
	m := mesh.NewMaterial(o.Name)
	m.Metallic, m.Roughness = 0, 1
	col := linalg.Vec3{0.8, 0.8, 0.8}
	for _, name := range []string{"DiffuseColor", "Diffuse"} {
		if p := o.props[name]; p != nil {
			if v, err := f.vec3Prop(o, name, col); err == nil {
				col = v
				break
			}
		}
	}
	factor := 1.0
	if v, ok := pFloat(o.props["DiffuseFactor"]); ok && v >= 0 && v <= 1 {
		factor = v
	}
	for k := 0; k < 3; k++ {
		m.BaseColor[k] = float32(math.Max(0, math.Min(1, col[k]*factor)))
	}
	if v, ok := pFloat(o.props["TransparencyFactor"]); ok && v > 0 && v < 1 {
		if tc, err := f.vec3Prop(o, "TransparentColor", linalg.Vec3{1, 1, 1}); err == nil && tc != (linalg.Vec3{}) {
			m.BaseColor[3] = float32(1 - v)
			m.AlphaMode = "BLEND"
		}
	}
	return m
}

// colorsOf returns the parts' LayerElementColor sets by layer number, a
// value per triangle corner through Attr.Index as the UV sets (whatever
// the layer's mapping and reference); the file's RGBA values are kept as
// they are (FBX does not say whether they are linear), and a part without
// the set reads opaque white.
func colorsOf(parts []*part, tris []corner) []mesh.Attr[[4]float32] {
	n := 0
	for _, p := range parts {
		n = max(n, len(p.geo.Colors))
	}
	var out []mesh.Attr[[4]float32]
	for k := 0; k < n; k++ {
		a := mesh.Attr[[4]float32]{Index: make([]int32, 0, 3*len(tris))}
		base := make([]int32, len(parts))
		for pi, p := range parts {
			base[pi] = int32(len(a.Values))
			if k >= len(p.geo.Colors) {
				a.Values = append(a.Values, [4]float32{1, 1, 1, 1})
				continue
			}
			l := &p.geo.Colors[k]
			if a.Name == "" {
				a.Name = l.Name
			}
			for i := 0; i+3 < len(l.Values); i += 4 {
				a.Values = append(a.Values, [4]float32{float32(l.Values[i]), float32(l.Values[i+1]), float32(l.Values[i+2]), float32(l.Values[i+3])})
			}
		}
		for _, c := range tris {
			p := parts[c.part]
			for _, pv := range c.pv {
				item := int32(0)
				if k < len(p.geo.Colors) {
					l := &p.geo.Colors[k]
					item = int32(l.Item(l.element(p.geo, c.poly, pv)))
				}
				a.Index = append(a.Index, base[c.part]+item)
			}
		}
		out = append(out, a)
	}
	return out
}
