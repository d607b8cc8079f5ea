package obj

import (
	"fmt"
	"math"
	"strconv"

	"github.com/meshrig/meshrig/mesh"
)

// looks gathers what an OBJ file shows besides its shape while it is read.
type looks struct {
	uv     [][2]float32 // vt, v flipped
	normal [][3]float32 // vn
	color  [][4]float32 // v x y z r g b; nil until a vertex has one
	libs   []string     // mtllib names

	object, group, material string   // the current o, g and usemtl names
	face                    []corner // the face being read
	// vt and vn hold every face corner's indices in file order, -1 where
	// absent; both stay nil until a corner names one, so a plain frame
	// file costs nothing.
	vt, vn     []int32
	corners    int // face corners read
	faces      int
	polyPart   []int32 // nil while every face is in part 0
	parts      []mesh.Part
	partOf     map[[2]string]int32
	materials  []string
	materialOf map[string]int
}

// fieldErr is an error at a column of the current line.
type fieldErr struct {
	col int
	err error
}

// value reads a vt or vn line.
func (lk *looks) value(fields []field) *fieldErr {
	var x [3]float64
	need := 3
	if string(fields[0].s) == "vt" {
		need = 1 // u, with v and w optional
	}
	if len(fields)-1 < need {
		return &fieldErr{1, fmt.Errorf("%s has %d values, need %d", fields[0].s, len(fields)-1, need)}
	}
	for k := 0; k < 3 && k+1 < len(fields); k++ {
		v, err := strconv.ParseFloat(string(fields[k+1].s), 64)
		if err != nil || !finite(v) || math.Abs(v) > math.MaxFloat32 {
			return &fieldErr{fields[k+1].col, fmt.Errorf("bad value %q", fields[k+1].s)}
		}
		x[k] = v
	}
	if need == 1 {
		// OBJ counts v up from the image's bottom; the mesh model, as glTF,
		// down from its top.
		lk.uv = append(lk.uv, [2]float32{float32(x[0]), float32(1 - x[1])})
	} else {
		lk.normal = append(lk.normal, [3]float32{float32(x[0]), float32(x[1]), float32(x[2])})
	}
	return nil
}

// vertexColor records the colour of vertex n (1-based) from its r g b
// fields; vertices before it without one are white.
func (lk *looks) vertexColor(rgb []field, n int) *fieldErr {
	var c [4]float32
	c[3] = 1
	for k, f := range rgb {
		x, err := strconv.ParseFloat(string(f.s), 64)
		if err != nil || !finite(x) || math.Abs(x) > math.MaxFloat32 {
			return &fieldErr{f.col, fmt.Errorf("bad colour %q", f.s)}
		}
		c[k] = float32(x)
	}
	if lk.color == nil {
		lk.color = make([][4]float32, 0, n)
	}
	lk.padColors(n - 1)
	lk.color = append(lk.color, c)
	return nil
}

// padColors makes the colours n long, white where missing, once any
// vertex has one.
func (lk *looks) padColors(n int) {
	for lk.color != nil && len(lk.color) < n {
		lk.color = append(lk.color, [4]float32{1, 1, 1, 1})
	}
}

// name records an o, g or usemtl line.
func (lk *looks) name(kind, name string) {
	switch kind {
	case "o":
		lk.object, lk.group = name, ""
	case "g":
		lk.group = name
	case "usemtl":
		lk.material = name
		if lk.materialOf == nil {
			lk.materialOf = map[string]int{}
		}
		if _, ok := lk.materialOf[name]; !ok {
			lk.materialOf[name] = len(lk.materials)
			lk.materials = append(lk.materials, name)
		}
	}
}

// addFace keeps the face just read: its corners and its part.
func (lk *looks) addFace() {
	if lk.vt == nil {
		for _, c := range lk.face {
			if c.vt >= 0 || c.vn >= 0 {
				lk.vt, lk.vn = make([]int32, lk.corners, 2*lk.corners+16), make([]int32, lk.corners, 2*lk.corners+16)
				for i := range lk.vt {
					lk.vt[i], lk.vn[i] = -1, -1
				}
				break
			}
		}
	}
	if lk.vt != nil {
		for _, c := range lk.face {
			lk.vt, lk.vn = append(lk.vt, int32(c.vt)), append(lk.vn, int32(c.vn))
		}
	}
	lk.corners += len(lk.face)
	lk.faces++
	obj := lk.object
	if obj == "" {
		obj = lk.group
	}
	key := [2]string{obj, lk.material}
	if lk.partOf == nil {
		lk.partOf = map[[2]string]int32{}
	}
	p, ok := lk.partOf[key]
	if !ok {
		p = int32(len(lk.parts))
		lk.partOf[key] = p
		mat := -1
		if lk.material != "" {
			mat = lk.materialOf[lk.material]
		}
		lk.parts = append(lk.parts, mesh.Part{Name: obj, Material: mat})
	}
	if lk.polyPart == nil && p != 0 {
		lk.polyPart = make([]int32, lk.faces-1, 2*lk.faces)
	}
	if lk.polyPart != nil {
		lk.polyPart = append(lk.polyPart, p)
	}
}

// check refuses vt and vn indices past the file's values; a file with no
// vt (or vn) at all has its indices of that kind ignored, as readers do.
func (lk *looks) check(polys [][]int, faceLine []int) error {
	if lk.vt == nil {
		return nil
	}
	c := 0
	for f, p := range polys {
		for range p {
			if int(lk.vt[c]) >= len(lk.uv) && len(lk.uv) > 0 {
				return perr(faceLine[f], 0, fmt.Errorf("texture coordinate index %d out of range (the file has %d)", lk.vt[c]+1, len(lk.uv)))
			}
			if int(lk.vn[c]) >= len(lk.normal) && len(lk.normal) > 0 {
				return perr(faceLine[f], 0, fmt.Errorf("normal index %d out of range (the file has %d)", lk.vn[c]+1, len(lk.normal)))
			}
			if len(lk.uv) == 0 {
				lk.vt[c] = -1
			}
			if len(lk.normal) == 0 {
				lk.vn[c] = -1
			}
			c++
		}
	}
	return nil
}

// surface builds the mesh's surface over the triangles mesh.New makes
// from polys (a fan per polygon: corners 0, i, i+1); nil when the file
// has no UVs, normals, materials or several parts.
func (lk *looks) surface(m *mesh.Mesh, polys [][]int) (*mesh.Surface, error) {
	s := &mesh.Surface{}
	var corners []int32
	if lk.vt != nil {
		var err error
		if corners, err = m.PolyCorners(); err != nil {
			return nil, err
		}
	}
	uvIdx, hasUV := cornerIndex(lk.vt, corners, len(lk.uv))
	nIdx, hasN := cornerIndex(lk.vn, corners, len(lk.normal))
	if hasUV {
		vals := lk.uv
		if len(uvIdx.missing) > 0 {
			vals = append(vals[:len(vals):len(vals)], [2]float32{0, 1}) // (0, 0) in OBJ's terms
		}
		s.UVs = []mesh.Attr[[2]float32]{{Values: vals, Index: uvIdx.index}}
	}
	if hasN {
		vals := lk.normal
		if len(nIdx.missing) > 0 {
			// A corner without vn: zero, which writers replace with a
			// smooth normal.
			vals = append(vals[:len(vals):len(vals)], [3]float32{})
		}
		s.Normals = &mesh.Attr[[3]float32]{Values: vals, Index: nIdx.index}
	}
	if lk.color != nil {
		s.Colors = []mesh.Attr[[4]float32]{{Values: lk.color}}
	}
	for _, name := range lk.materials {
		m := mesh.NewMaterial(name)
		m.Metallic = 0 // OBJ's diffuse colour: a dielectric
		s.Materials = append(s.Materials, m)
	}
	if len(lk.parts) > 1 || len(s.Materials) > 0 {
		s.Parts = lk.parts
	}
	if len(s.Parts) > 1 {
		for k, p := range polys {
			for i := 2; i < len(p); i++ {
				s.TriPart = append(s.TriPart, lk.polyPart[k])
			}
		}
	}
	if !hasUV && !hasN && lk.color == nil && len(s.Materials) == 0 && len(s.Parts) <= 1 {
		return nil, nil
	}
	return s, nil
}

// cornerIndices are a per-corner attribute's indices over the triangles.
type cornerIndices struct {
	index   []int32
	missing []int // corners without a value, which take the one appended
}

// cornerIndex lays one kind of corner index (idx, over the polygons'
// corners in file order) on the triangles' corners (corners: each one's
// polygon corner, mesh.PolyCorners); has is false when no corner names a
// value of that kind. A corner without one takes value n, which the
// caller appends.
func cornerIndex(idx, corners []int32, n int) (cornerIndices, bool) {
	var out cornerIndices
	has := false
	for _, i := range idx {
		if i >= 0 {
			has = true
			break
		}
	}
	if !has {
		return out, false
	}
	out.index = make([]int32, len(corners))
	for c, pc := range corners {
		i := idx[pc]
		if i < 0 {
			out.missing = append(out.missing, c)
			i = int32(n)
		}
		out.index[c] = i
	}
	return out, true
}
