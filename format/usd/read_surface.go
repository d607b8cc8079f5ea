package usd

import (
	"math"
	"slices"

	"github.com/meshrig/meshrig/mesh"
)

// readSurface reads what Write keeps of the mesh's surface: normals, UV
// sets and colour sets (per vertex, or per face-vertex, indexed or not), materials
// (UsdPreviewSurface factors and the base colour texture's file) and the
// parts (GeomSubsets of the materialBind family, or one binding on the
// mesh). counts are the faces' vertex counts; m's triangles are their
// fans, as mesh.New makes them.
func readSurface(p, root *prim, m *mesh.Mesh, counts []float64) error {
	s := &mesh.Surface{}
	// corner maps triangle corner 3t+k to its face-vertex.
	corner := make([]int, 0, 3*len(m.Tris))
	at := 0
	for _, c := range counts {
		for i := 1; i+1 < int(c); i++ {
			corner = append(corner, at, at+i, at+i+1)
		}
		at += int(c)
	}
	if a := p.props["primvars:normals"]; a != nil {
		vals, index, err := primvar(a, "normal3f[]", 3, len(m.Verts), at, corner)
		if err != nil {
			return err
		}
		s.Normals = &mesh.Attr[[3]float32]{Values: make([][3]float32, len(vals)/3), Index: index}
		for i := range s.Normals.Values {
			s.Normals.Values[i] = [3]float32{float32(vals[3*i]), float32(vals[3*i+1]), float32(vals[3*i+2])}
		}
	}
	for k := 0; ; k++ {
		a := p.props["primvars:"+stName(k)]
		if a == nil {
			break
		}
		vals, index, err := primvar(a, "texCoord2f[]", 2, len(m.Verts), at, corner)
		if err != nil {
			return err
		}
		uv := mesh.Attr[[2]float32]{Values: make([][2]float32, len(vals)/2), Index: index}
		for i := range uv.Values {
			uv.Values[i] = [2]float32{float32(vals[2*i]), float32(1 - float32(vals[2*i+1]))}
		}
		s.UVs = append(s.UVs, uv)
	}
	for k := 0; ; k++ {
		ca, oa := p.props["primvars:"+colorName(k)], p.props["primvars:"+opacityName(k)]
		if ca == nil || oa == nil {
			break
		}
		rgb, index, err := primvar(ca, "color3f[]", 3, len(m.Verts), at, corner)
		if err != nil {
			return err
		}
		alpha, aindex, err := primvar(oa, "float[]", 1, len(m.Verts), at, corner)
		if err != nil {
			return err
		}
		if len(alpha) != len(rgb)/3 || !slices.Equal(index, aindex) {
			return failf(oa.line, "%s does not match %s value for value", oa.name, ca.name)
		}
		c := mesh.Attr[[4]float32]{Values: make([][4]float32, len(alpha)), Index: index}
		for i := range c.Values {
			c.Values[i] = [4]float32{float32(rgb[3*i]), float32(rgb[3*i+1]), float32(rgb[3*i+2]), float32(alpha[i])}
		}
		s.Colors = append(s.Colors, c)
	}
	mats, err := readMaterials(root, s)
	if err != nil {
		return err
	}
	if err := readParts(p, m, s, mats, counts); err != nil {
		return err
	}
	if s.Normals == nil && len(s.UVs) == 0 && len(s.Colors) == 0 && len(s.Materials) == 0 && len(s.Parts) == 0 {
		return nil
	}
	m.Surface = s
	if err := s.Validate(len(m.Verts), len(m.Tris)); err != nil {
		return failf(p.line, "surface: %v", err)
	}
	return nil
}

// primvar reads a primvar of w numbers per value with "vertex" or
// "faceVarying" interpolation (optionally indexed); it returns the
// values and, for faceVarying, the value index of each triangle corner.
func primvar(a *prop, typ string, w, verts, faceVerts int, corner []int) ([]float64, []int32, error) {
	if a.typ != typ || a.val == nil {
		return nil, nil, failf(a.line, "%s must be a %s with a value", a.name, typ)
	}
	vals, err := numbers(a, a.val, w, -1)
	if err != nil {
		return nil, nil, err
	}
	n := len(vals) / w
	interp := "vertex"
	if v, ok := a.meta["interpolation"]; ok {
		if v.kind != vString {
			return nil, nil, failf(v.line, "%s: interpolation must be a string", a.name)
		}
		interp = v.str
	}
	var idx []float64
	if ia := a.owner.props[a.name+":indices"]; ia != nil {
		if ia.typ != "int[]" || ia.val == nil {
			return nil, nil, failf(ia.line, "%s must be an int[] with a value", ia.name)
		}
		if idx, err = numbers(ia, ia.val, 1, -1); err != nil {
			return nil, nil, err
		}
		for _, i := range idx {
			if i != math.Trunc(i) || i < 0 || i >= float64(n) {
				return nil, nil, failf(ia.line, "%s: index %v out of range (%d values)", ia.name, i, n)
			}
		}
	}
	switch interp {
	case "vertex":
		if idx != nil || n != verts {
			return nil, nil, failf(a.line, "%s: %d vertex values for %d points (indexed vertex primvars are not read)", a.name, n, verts)
		}
		return vals, nil, nil
	case "faceVarying":
		size := n
		if idx != nil {
			size = len(idx)
		}
		if size != faceVerts {
			return nil, nil, failf(a.line, "%s: %d face-varying values for %d face-vertices", a.name, size, faceVerts)
		}
		index := make([]int32, len(corner))
		for c, fv := range corner {
			if idx != nil {
				index[c] = int32(idx[fv])
			} else {
				index[c] = int32(fv)
			}
		}
		return vals, index, nil
	}
	return nil, nil, failf(a.line, "%s: interpolation %q is not read (vertex or faceVarying)", a.name, interp)
}

// readParts reads the parts: GeomSubsets of faces, each becoming a part
// with its material, or one material bound on the whole mesh.
func readParts(p *prim, m *mesh.Mesh, s *mesh.Surface, mats []string, counts []float64) error {
	matOf := func(a *prop) (int, error) {
		if a == nil {
			return -1, nil
		}
		if a.val == nil || a.val.kind != vPath {
			return -1, failf(a.line, "material:binding must target a material path")
		}
		for k, q := range mats {
			if q == a.val.str {
				return k, nil
			}
		}
		return -1, failf(a.line, "material:binding targets <%s>, not a material of the layer", a.val.str)
	}
	var subsets []*prim
	for _, c := range p.children {
		if c.typ == "GeomSubset" {
			subsets = append(subsets, c)
		}
	}
	if len(subsets) == 0 {
		k, err := matOf(p.props["material:binding"])
		if err != nil || k < 0 {
			return err
		}
		s.Parts = []mesh.Part{{Material: k}}
		return nil
	}
	// The triangles of each face.
	first := make([]int, len(counts)+1)
	for f, c := range counts {
		first[f+1] = first[f] + int(c) - 2
	}
	s.TriPart = make([]int32, len(m.Tris))
	for t := range s.TriPart {
		s.TriPart[t] = -1
	}
	for _, sub := range subsets {
		part := mesh.Part{Name: sub.name}
		if cd, ok := sub.meta["customData"]; ok && cd.kind == vDict {
			if v, ok := cd.dict["name"]; ok && v.kind == vString {
				part.Name = v.str
			}
		}
		k, err := matOf(sub.props["material:binding"])
		if err != nil {
			return err
		}
		part.Material = k
		ia, err := attr(sub, "indices", "int[]", true)
		if err != nil {
			return err
		}
		idx, err := numbers(ia, ia.val, 1, -1)
		if err != nil {
			return err
		}
		for _, f := range idx {
			if f != math.Trunc(f) || f < 0 || f >= float64(len(counts)) {
				return failf(ia.line, "subset %q: face %v out of range (%d faces)", sub.name, f, len(counts))
			}
			for t := first[int(f)]; t < first[int(f)+1]; t++ {
				if s.TriPart[t] >= 0 {
					return failf(ia.line, "subset %q: face %v is in another subset too", sub.name, f)
				}
				s.TriPart[t] = int32(len(s.Parts))
			}
		}
		s.Parts = append(s.Parts, part)
	}
	for t, q := range s.TriPart {
		if q < 0 {
			return failf(p.line, "triangle %d is in no subset", t+1)
		}
	}
	if len(s.Parts) == 1 {
		s.TriPart = nil
	}
	return nil
}
