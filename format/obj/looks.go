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
	libs   []string     // mtllib names

	object, group, material string   // the current o, g and usemtl names
	face                    []corner // the face being read
	corners                 [][]corner
	polyPart                []int32
	parts                   []mesh.Part
	partOf                  map[[2]string]int32
	materials               []string
	materialOf              map[string]int
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
	lk.corners = append(lk.corners, append([]corner(nil), lk.face...))
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
	lk.polyPart = append(lk.polyPart, p)
}

// check refuses vt and vn indices past the file's values; a file with no
// vt (or vn) at all has its indices of that kind ignored, as readers do.
func (lk *looks) check(faceLine []int) error {
	for f, cs := range lk.corners {
		for k, c := range cs {
			if c.vt >= len(lk.uv) && len(lk.uv) > 0 {
				return perr(faceLine[f], 0, fmt.Errorf("texture coordinate index %d out of range (the file has %d)", c.vt+1, len(lk.uv)))
			}
			if c.vn >= len(lk.normal) && len(lk.normal) > 0 {
				return perr(faceLine[f], 0, fmt.Errorf("normal index %d out of range (the file has %d)", c.vn+1, len(lk.normal)))
			}
			if len(lk.uv) == 0 {
				cs[k].vt = -1
			}
			if len(lk.normal) == 0 {
				cs[k].vn = -1
			}
		}
	}
	return nil
}

// surface builds the mesh's surface over the triangles mesh.New makes
// from polys (a fan per polygon: corners 0, i, i+1); nil when the file
// has no UVs, normals, materials or several parts.
func (lk *looks) surface(polys [][]int) *mesh.Surface {
	s := &mesh.Surface{}
	uvIdx, hasUV := lk.cornerIndex(func(c corner) int { return c.vt }, len(lk.uv))
	nIdx, hasN := lk.cornerIndex(func(c corner) int { return c.vn }, len(lk.normal))
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
	if !hasUV && !hasN && len(s.Materials) == 0 && len(s.Parts) <= 1 {
		return nil
	}
	return s
}

// cornerIndices are a per-corner attribute's indices over the triangles.
type cornerIndices struct {
	index   []int32
	missing []int // corners without a value, which take the one appended
}

// cornerIndex lays one kind of corner index over the fan triangles; has
// is false when no corner names a value of that kind.
func (lk *looks) cornerIndex(of func(corner) int, n int) (cornerIndices, bool) {
	var out cornerIndices
	has := false
	for _, cs := range lk.corners {
		for _, c := range cs {
			has = has || of(c) >= 0
		}
	}
	if !has {
		return out, false
	}
	add := func(c corner) {
		i := of(c)
		if i < 0 {
			out.missing = append(out.missing, len(out.index))
			i = n
		}
		out.index = append(out.index, int32(i))
	}
	for _, cs := range lk.corners {
		for i := 1; i+1 < len(cs); i++ {
			add(cs[0])
			add(cs[i])
			add(cs[i+1])
		}
	}
	return out, true
}
