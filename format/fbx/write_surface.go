package fbx

import (
	"fmt"

	"github.com/meshrig/meshrig/mesh"
)

// polyCorners returns the mesh's polygons to write and, for each polygon
// vertex in order, the triangle corner (3·triangle + corner) whose
// attributes it takes: the polygons as read when they are the fans
// mesh.New made of them, else the triangles.
func polyCorners(m *mesh.Mesh) (polys [][]int, corners []int) {
	if m.PolyStart != nil {
		polys, corners = fanPolys(m)
		if polys != nil {
			return polys, corners
		}
	}
	polys = make([][]int, len(m.Tris))
	corners = make([]int, 0, 3*len(m.Tris))
	for t := range m.Tris {
		polys[t] = m.Tris[t][:]
		corners = append(corners, 3*t, 3*t+1, 3*t+2)
	}
	return polys, corners
}

// fanPolys maps each polygon's vertices to its fan triangles' corners;
// nil when the triangles are not the fans of the polygons.
func fanPolys(m *mesh.Mesh) ([][]int, []int) {
	first := make([]int, m.NumPolys())
	for k := range first {
		first[k] = -1
	}
	for t, k := range m.TriPoly {
		if first[k] < 0 {
			first[k] = t
		}
	}
	polys := make([][]int, m.NumPolys())
	var corners []int
	for k := range polys {
		p := m.Poly(k)
		t0 := first[k]
		n := len(p)
		if t0 < 0 || t0+n-2 > len(m.Tris) {
			return nil, nil
		}
		for i := range p {
			var c int
			switch {
			case i == 0:
				c = 3 * t0
			case i < n-1:
				c = 3*(t0+i-1) + 1
			default:
				c = 3*(t0+n-3) + 2
			}
			if m.TriPoly[c/3] != k || m.Tris[c/3][c%3] != p[i] {
				return nil, nil
			}
			corners = append(corners, c)
		}
		polys[k] = p
	}
	return polys, corners
}

// surfaceLayers returns the geometry's layer elements and Layer records
// for the surface: normals, materials and the first UV set in layer 0,
// each further UV set in a layer of its own, every one by polygon vertex.
// matCount is the number of Material objects the mesh model needs.
func surfaceLayers(m *mesh.Mesh, polys [][]int, corners []int) (elems []*Node, matCount int) {
	s := m.Surface
	if s == nil {
		return nil, 0
	}
	vertexOf := func(c int) int { return m.Tris[c/3][c%3] }
	var layers [][]string // per layer: element types
	add := func(layer int, typ string) {
		for len(layers) <= layer {
			layers = append(layers, nil)
		}
		layers[layer] = append(layers[layer], typ)
	}
	if s.Normals != nil {
		vals := make([]float64, 0, 3*len(corners))
		for _, c := range corners {
			n := s.Normals.At(c/3, c%3, vertexOf(c))
			vals = append(vals, float64(n[0]), float64(n[1]), float64(n[2]))
		}
		elems = append(elems, node("LayerElementNormal", []Property{pI(0)}, one("Version", pI(102)), one("Name", pS(s.Normals.Name)),
			one("MappingInformationType", pS("ByPolygonVertex")), one("ReferenceInformationType", pS("Direct")),
			node("Normals", []Property{{Type: 'd', F64: vals}})))
		add(0, "LayerElementNormal")
	}
	if len(s.Materials) > 0 {
		// A polygon takes its first triangle's part's material; polygons
		// without one get an extra default material.
		idx := make([]int32, len(polys))
		matCount = len(s.Materials)
		pv := 0
		for k := range polys {
			mat := -1
			if p := s.Part(corners[pv] / 3); p >= 0 {
				mat = s.Parts[p].Material
			}
			if mat < 0 {
				mat = len(s.Materials)
				matCount = len(s.Materials) + 1
			}
			idx[k] = int32(mat)
			pv += len(polys[k])
		}
		elems = append(elems, node("LayerElementMaterial", []Property{pI(0)}, one("Version", pI(101)), one("Name", pS("")),
			one("MappingInformationType", pS("ByPolygon")), one("ReferenceInformationType", pS("IndexToDirect")),
			node("Materials", []Property{{Type: 'i', I32: idx}})))
		add(0, "LayerElementMaterial")
	}
	for k := range s.UVs {
		a := &s.UVs[k]
		vals := make([]float64, 0, 2*len(a.Values))
		for _, v := range a.Values {
			vals = append(vals, float64(v[0]), 1-float64(v[1])) // FBX's v points up
		}
		index := make([]int32, len(corners))
		for i, c := range corners {
			if a.Index != nil {
				index[i] = a.Index[c]
			} else {
				index[i] = int32(vertexOf(c))
			}
		}
		name := a.Name
		if name == "" {
			name = fmt.Sprintf("UVSet%d", k)
		}
		elems = append(elems, node("LayerElementUV", []Property{pI(k)}, one("Version", pI(101)), one("Name", pS(name)),
			one("MappingInformationType", pS("ByPolygonVertex")), one("ReferenceInformationType", pS("IndexToDirect")),
			node("UV", []Property{{Type: 'd', F64: vals}}), node("UVIndex", []Property{{Type: 'i', I32: index}})))
		add(k, "LayerElementUV")
	}
	for l, types := range layers {
		ch := []*Node{one("Version", pI(100))}
		typed := map[string]int{"LayerElementUV": l}
		for _, typ := range types {
			ch = append(ch, node("LayerElement", nil, one("Type", pS(typ)), one("TypedIndex", pI(typed[typ]))))
		}
		elems = append(elems, node("Layer", []Property{pI(l)}, ch...))
	}
	return elems, matCount
}

// materialObject is a Lambert material with the mesh material's name,
// colour and opacity; the default one when mat is nil.
func (b *builder) materialObject(mat *mesh.Material) int64 {
	name, col, alpha := "default", [4]float32{0.8, 0.8, 0.8, 1}, float32(1)
	if mat != nil {
		name, col, alpha = mat.Name, mat.BaseColor, mat.BaseColor[3]
		if name == "" {
			name = "material"
		}
	}
	return b.object("Material", name, "", one("Version", pI(102)), one("ShadingModel", pS("lambert")), one("MultiLayer", pI(0)),
		node("Properties70", nil,
			prop70("DiffuseColor", "Color", "", "A", pD(float64(col[0])), pD(float64(col[1])), pD(float64(col[2]))),
			prop70("DiffuseFactor", "Number", "", "A", pD(1)),
			prop70("TransparentColor", "Color", "", "A", pD(1), pD(1), pD(1)),
			prop70("TransparencyFactor", "Number", "", "A", pD(float64(1-alpha)))))
}
