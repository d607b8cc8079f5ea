package usd

import (
	"strconv"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// writeMesh writes the skinned Mesh: points, faces, the surface's normals,
// UV sets and colour sets as primvars, skinning primvars (four joints and weights per
// point) bound to the Skeleton, and the material bindings (one on the
// mesh, or a GeomSubset per part).
func writeMesh(e *enc, r *rig.Rig, mats []string) {
	m := r.Mesh
	fs := newFaces(m)
	s := m.Surface
	e.line("def Mesh " + quote(meshName) + " (")
	e.line(`    prepend apiSchemas = ["SkelBindingAPI", "MaterialBindingAPI"]`)
	e.line(")")
	e.open("")
	lo, hi := bounds(m.Verts)
	e.begin()
	e.buf = append(e.buf, "float3[] extent = ["...)
	e.buf = tuple(e.buf, lo[0], lo[1], lo[2])
	e.buf = append(e.buf, ", "...)
	e.buf = tuple(e.buf, hi[0], hi[1], hi[2])
	e.buf = append(e.buf, ']')
	e.end()
	intArray(e, "int[] faceVertexCounts", fs.counts)
	intArray(e, "int[] faceVertexIndices", fs.verts)
	e.begin()
	e.buf = append(e.buf, "point3f[] points = ["...)
	for i, v := range m.Verts {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		e.buf = tuple(e.buf, v[0], v[1], v[2])
	}
	e.buf = append(e.buf, ']')
	e.end()
	if s != nil && s.Normals != nil {
		writePrimvar(e, "normal3f[] primvars:normals", s.Normals, fs, func(b []byte, v [3]float32) []byte {
			return tuple(b, float64(v[0]), float64(v[1]), float64(v[2]))
		})
	}
	if s != nil {
		for k := range s.UVs {
			// USD's st has v up from the image's bottom-left corner;
			// the surface's v runs down from the top-left.
			writePrimvar(e, "texCoord2f[] primvars:"+stName(k), &s.UVs[k], fs, func(b []byte, v [2]float32) []byte {
				return tuple(b, float64(v[0]), float64(1-v[1]))
			})
		}
	}
	if s != nil {
		for k := range s.Colors {
			// UsdGeom's display colour and opacity: RGB and A apart.
			writePrimvar(e, "color3f[] primvars:"+colorName(k), &s.Colors[k], fs, func(b []byte, v [4]float32) []byte {
				return tuple(b, float64(v[0]), float64(v[1]), float64(v[2]))
			})
			writePrimvar(e, "float[] primvars:"+opacityName(k), &s.Colors[k], fs, func(b []byte, v [4]float32) []byte {
				return f32(b, float64(v[3]))
			})
		}
	}
	e.line(`uniform token subdivisionScheme = "none"`)
	writeSkin(e, r.Skin)
	e.line("rel skel:skeleton = </" + rootName + "/" + skelName + ">")
	writeBindings(e, m, fs, mats)
	e.close()
}

// stName is the primvar of UV set k: st, st1, st2 …
func stName(k int) string {
	if k == 0 {
		return "st"
	}
	return "st" + strconv.Itoa(k)
}

// colorName and opacityName are the primvars of colour set k:
// displayColor and displayOpacity, then displayColor1 …
func colorName(k int) string   { return "displayColor" + setSuffix(k) }
func opacityName(k int) string { return "displayOpacity" + setSuffix(k) }

func setSuffix(k int) string {
	if k == 0 {
		return ""
	}
	return strconv.Itoa(k)
}

// writePrimvar writes one surface attribute: per vertex with "vertex"
// interpolation, per corner as an indexed "faceVarying" primvar (the
// values as the input had them, and an index per face-vertex).
func writePrimvar[T any](e *enc, decl string, a *mesh.Attr[T], fs *faces, val func([]byte, T) []byte) {
	e.begin()
	e.buf = append(e.buf, decl...)
	e.buf = append(e.buf, " = ["...)
	for i, v := range a.Values {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		e.buf = val(e.buf, v)
	}
	e.buf = append(e.buf, "] ("...)
	if a.PerCorner() {
		e.buf = append(e.buf, `interpolation = "faceVarying")`...)
	} else {
		e.buf = append(e.buf, `interpolation = "vertex")`...)
	}
	e.end()
	if a.PerCorner() {
		idx := make([]int, len(fs.corner))
		for i, c := range fs.corner {
			idx[i] = int(a.Index[c])
		}
		name := decl[len(typeOf(decl))+1:]
		intArray(e, "int[] "+name+":indices", idx)
	}
}

// typeOf returns the type of a declaration "type name".
func typeOf(decl string) string {
	for i := range decl {
		if decl[i] == ' ' {
			return decl[:i]
		}
	}
	return decl
}

// writeSkin writes the skinning primvars: four joint indices and four
// weights per point (UsdSkel's elementSize), and the geometry's bind
// transform — the identity, as the points are already where the
// skeleton's bind transforms have the joints.
func writeSkin(e *enc, skin rig.Skin) {
	idx := make([]int, 0, 4*len(skin))
	for _, in := range skin {
		for _, j := range in.Joint {
			idx = append(idx, int(j))
		}
	}
	intArray(e, "int[] primvars:skel:jointIndices", idx, "elementSize = 4", `interpolation = "vertex"`)
	e.begin()
	e.buf = append(e.buf, "float[] primvars:skel:jointWeights = ["...)
	for i, in := range skin {
		for k, w := range in.Weight {
			if i > 0 || k > 0 {
				e.buf = append(e.buf, ", "...)
			}
			e.buf = f32(e.buf, w)
		}
	}
	e.buf = append(e.buf, "] ("...)
	e.end()
	e.indent++
	e.line("elementSize = 4")
	e.line(`interpolation = "vertex"`)
	e.indent--
	e.line(")")
	e.begin()
	e.buf = append(e.buf, "matrix4d primvars:skel:geomBindTransform = "...)
	e.buf = matrix(e.buf, [3][3]float64(linalg.Identity3()), [3]float64{})
	e.end()
}

// intArray writes "decl = [v…]", with meta as the attribute's metadata,
// a line each.
func intArray(e *enc, decl string, v []int, meta ...string) {
	e.begin()
	e.buf = append(e.buf, decl...)
	e.buf = append(e.buf, " = ["...)
	for i, x := range v {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	}
	e.buf = append(e.buf, ']')
	if len(meta) > 0 {
		e.buf = append(e.buf, " ("...)
	}
	e.end()
	if len(meta) > 0 {
		e.indent++
		for _, l := range meta {
			e.line(l)
		}
		e.indent--
		e.line(")")
	}
}

// writeBindings binds materials: the one part's material on the mesh
// (and a subset of every face keeping its name), or one GeomSubset per
// part (faces by index, the part's name in
// customData) with its material, the subsets a partition of the faces.
func writeBindings(e *enc, m *mesh.Mesh, fs *faces, mats []string) {
	s := m.Surface
	if s == nil || len(s.Parts) == 0 {
		return
	}
	matPath := func(k int) string { return "</" + rootName + "/" + materialName + "/" + mats[k] + ">" }
	if len(s.Parts) == 1 {
		if k := s.Parts[0].Material; k >= 0 {
			e.line("rel material:binding = " + matPath(k))
		}
		if s.Parts[0].Name == "" {
			return
		}
		// A named part is kept as a subset of every face.
	}
	byPart := make([][]int, len(s.Parts))
	for f, t := range fs.tri {
		p := s.Part(t)
		byPart[p] = append(byPart[p], f)
	}
	e.line(`uniform token subsetFamily:materialBind:familyType = "partition"`)
	n := namer{}
	for p, part := range s.Parts {
		if len(byPart[p]) == 0 {
			continue
		}
		e.line("")
		e.line("def GeomSubset " + quote(n.name(part.Name, "part")) + " (")
		e.line(`    prepend apiSchemas = ["MaterialBindingAPI"]`)
		e.line("    customData = {")
		e.line("        string name = " + quote(part.Name))
		e.line("    }")
		e.line(")")
		e.open("")
		e.line(`uniform token elementType = "face"`)
		e.line(`uniform token familyName = "materialBind"`)
		intArray(e, "int[] indices", byPart[p])
		if k := part.Material; k >= 0 {
			e.line("rel material:binding = " + matPath(k))
		}
		e.close()
	}
}

// bounds returns the corners of the points' bounding box.
func bounds(v []linalg.Vec3) (lo, hi linalg.Vec3) {
	if len(v) == 0 {
		return
	}
	lo, hi = v[0], v[0]
	for _, p := range v[1:] {
		lo, hi = lo.Min(p), hi.Max(p)
	}
	return lo, hi
}
