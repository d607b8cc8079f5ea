package fbx

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// Geometry is a Geometry "Mesh" object: control points, polygons and
// their layer elements.
type Geometry struct {
	// Verts are the control points, in file order.
	Verts []linalg.Vec3
	// PolyStart and PolyVerts are the polygons of PolygonVertexIndex:
	// polygon k has the control points PolyVerts[PolyStart[k]:PolyStart[k+1]]
	// (the file marks a polygon's last index i as −i−1).
	PolyStart, PolyVerts []int
	// Normals, UVs, Colors and Materials are the layer elements the mesh
	// has (LayerElementNormal, LayerElementUV, LayerElementColor,
	// LayerElementMaterial).
	Normals, UVs, Colors, Materials []LayerElement
}

// LayerElement is one per-mesh attribute layer. Mapping says what it is
// stored per ("ByVertice", "ByPolygonVertex", "ByPolygon", "AllSame"),
// Reference how ("Direct", or "IndexToDirect" through Index).
type LayerElement struct {
	Name, Mapping, Reference string
	// Width is the values per item: 3 for normals, 2 for UVs, 4 for
	// colours (RGBA), 1 for material indices.
	Width int
	// Values holds the items, Width numbers each.
	Values []float64
	// Index holds, for IndexToDirect, an item per mapped element.
	Index []int32
}

// Item returns the item number of mapped element k (a control point, a
// polygon corner or a polygon, by Mapping).
func (l *LayerElement) Item(k int) int {
	if l.Index != nil {
		return int(l.Index[k])
	}
	return k
}

// readGeometry reads a Geometry "Mesh" object, checking every index.
func readGeometry(o *Object) (*Geometry, error) {
	n := o.Node
	g := &Geometry{}
	vp, err := floatArray(n, "Vertices", o)
	if err != nil {
		return nil, err
	}
	if len(vp)%3 != 0 {
		return nil, errAt(n.Child("Vertices").Offset, "mesh %q: %d vertex coordinates, not a multiple of 3", o.Name, len(vp))
	}
	g.Verts = make([]linalg.Vec3, len(vp)/3)
	for i := range g.Verts {
		g.Verts[i] = linalg.Vec3{vp[3*i], vp[3*i+1], vp[3*i+2]}
		if !g.Verts[i].IsFinite() {
			return nil, errAt(n.Child("Vertices").Offset, "mesh %q: vertex %d is not finite", o.Name, i+1)
		}
	}
	pvi := n.Child("PolygonVertexIndex")
	idx, err := intArray(n, "PolygonVertexIndex", o)
	if err != nil {
		return nil, err
	}
	g.PolyStart = []int{0}
	g.PolyVerts = make([]int, len(idx))
	for k, v := range idx {
		last := v < 0
		if last {
			v = -v - 1
		}
		if int(v) >= len(g.Verts) {
			return nil, errAt(pvi.Offset, "mesh %q: polygon corner %d uses vertex %d of %d", o.Name, k+1, v+1, len(g.Verts))
		}
		g.PolyVerts[k] = int(v)
		if last {
			g.PolyStart = append(g.PolyStart, k+1)
		}
	}
	if len(idx) > 0 && idx[len(idx)-1] >= 0 {
		return nil, errAt(pvi.Offset, "mesh %q: the last polygon has no end marker (a negative index)", o.Name)
	}
	polys := len(g.PolyStart) - 1
	for k := 0; k < polys; k++ {
		p := g.PolyVerts[g.PolyStart[k]:g.PolyStart[k+1]]
		if len(p) < 3 {
			return nil, errAt(pvi.Offset, "mesh %q: polygon %d has %d corners, need at least 3", o.Name, k+1, len(p))
		}
		if a := mesh.FirstRepeat(p); a >= 0 {
			return nil, errAt(pvi.Offset, "mesh %q: polygon %d uses vertex %d twice", o.Name, k+1, p[a]+1)
		}
	}
	for _, c := range n.Children {
		var l LayerElement
		var data, index string
		switch c.Name {
		case "LayerElementNormal":
			l.Width, data, index = 3, "Normals", "NormalsIndex"
		case "LayerElementUV":
			l.Width, data, index = 2, "UV", "UVIndex"
		case "LayerElementColor":
			l.Width, data, index = 4, "Colors", "ColorIndex"
		case "LayerElementMaterial":
			l.Width, data, index = 1, "Materials", ""
		default:
			continue
		}
		l.Name, _ = stringChild(c, "Name")
		l.Mapping, _ = stringChild(c, "MappingInformationType")
		l.Reference, _ = stringChild(c, "ReferenceInformationType")
		var count int
		switch l.Mapping {
		case "ByVertice", "ByVertex", "ByControlPoint":
			count = len(g.Verts)
		case "ByPolygonVertex":
			count = len(g.PolyVerts)
		case "ByPolygon":
			count = polys
		case "AllSame":
			count = 1
		default:
			return nil, errAt(c.Offset, "mesh %q: %s mapping %q is not one meshrig reads", o.Name, c.Name, l.Mapping)
		}
		if l.Width == 1 {
			// Material indices: Materials is the per-element index.
			ints, err := intArray(c, data, o)
			if err != nil {
				return nil, err
			}
			if len(ints) < count {
				return nil, errAt(c.Offset, "mesh %q: %d material indices for %d elements", o.Name, len(ints), count)
			}
			l.Index = ints[:count]
			for _, v := range l.Index {
				if v < 0 {
					return nil, errAt(c.Offset, "mesh %q: negative material index %d", o.Name, v)
				}
			}
			g.Materials = append(g.Materials, l)
			continue
		}
		if l.Values, err = floatArray(c, data, o); err != nil {
			return nil, err
		}
		if l.Width == 4 {
			// Colours become masks and weights downstream: refuse NaN here.
			for i, v := range l.Values {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, errAt(c.Offset, "mesh %q: colour %d is not finite", o.Name, i/4+1)
				}
			}
		}
		items := len(l.Values) / l.Width
		switch l.Reference {
		case "Direct":
			if items < count {
				return nil, errAt(c.Offset, "mesh %q: %s holds %d items for %d elements", o.Name, c.Name, items, count)
			}
		case "IndexToDirect", "Index":
			ints, err := intArray(c, index, o)
			if err != nil {
				return nil, err
			}
			if len(ints) < count {
				return nil, errAt(c.Offset, "mesh %q: %s has %d indices for %d elements", o.Name, c.Name, len(ints), count)
			}
			l.Index = ints[:count]
			for _, v := range l.Index {
				if v < 0 || int(v) >= items {
					return nil, errAt(c.Offset, "mesh %q: %s index %d out of range (%d items)", o.Name, c.Name, v, items)
				}
			}
		default:
			return nil, errAt(c.Offset, "mesh %q: %s reference %q is not one meshrig reads", o.Name, c.Name, l.Reference)
		}
		switch l.Width {
		case 3:
			g.Normals = append(g.Normals, l)
		case 4:
			g.Colors = append(g.Colors, l)
		default:
			g.UVs = append(g.UVs, l)
		}
	}
	return g, nil
}

// stringChild returns the string value of n's child name.
func stringChild(n *Node, name string) (string, bool) {
	c := n.Child(name)
	if c == nil || len(c.Props) == 0 || c.Props[0].Type != 'S' {
		return "", false
	}
	return string(c.Props[0].Bytes), true
}

// oneArray returns the single property of n's child name; a missing
// child or another count is an error naming o.
func oneArray(n *Node, name string, o *Object) (Property, error) {
	c := n.Child(name)
	if c == nil {
		return Property{}, errAt(n.Offset, "%s %q has no %s", o.Class, o.Name, name)
	}
	if len(c.Props) != 1 {
		return Property{}, errAt(c.Offset, "%s %q: %s wants one array", o.Class, o.Name, name)
	}
	return c.Props[0], nil
}

// floatArray returns the d or f array of n's child name; a missing child
// or another type is an error naming o.
func floatArray(n *Node, name string, o *Object) ([]float64, error) {
	p, err := oneArray(n, name, o)
	if err != nil {
		return nil, err
	}
	switch p.Type {
	case 'd':
		return p.F64, nil
	case 'f':
		out := make([]float64, len(p.F32))
		for i, v := range p.F32 {
			out[i] = float64(v)
		}
		return out, nil
	}
	return nil, errAt(p.Offset, "%s %q: %s is of type %q, want a float array", o.Class, o.Name, name, p.Type)
}

// intArray returns the i (or l) array of n's child name.
func intArray(n *Node, name string, o *Object) ([]int32, error) {
	p, err := oneArray(n, name, o)
	if err != nil {
		return nil, err
	}
	switch p.Type {
	case 'i':
		return p.I32, nil
	case 'l':
		out := make([]int32, len(p.I64))
		for i, v := range p.I64 {
			if v < math.MinInt32 || v > math.MaxInt32 {
				return nil, errAt(p.Offset, "%s %q: %s value %d out of range", o.Class, o.Name, name, v)
			}
			out[i] = int32(v)
		}
		return out, nil
	}
	return nil, errAt(p.Offset, "%s %q: %s is of type %q, want an integer array", o.Class, o.Name, name, p.Type)
}

// matrix reads a 16-number matrix child (column-major, as FBX stores it).
func matrix(n *Node, name string, o *Object) (linalg.Affine, error) {
	v, err := floatArray(n, name, o)
	if err != nil {
		return linalg.Affine{}, err
	}
	if len(v) != 16 {
		return linalg.Affine{}, errAt(n.Child(name).Offset, "%s %q: %s has %d numbers, want 16", o.Class, o.Name, name, len(v))
	}
	var c [16]float64
	for i := range c {
		if math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			return linalg.Affine{}, errAt(n.Child(name).Offset, "%s %q: %s is not finite", o.Class, o.Name, name)
		}
		c[i] = v[i]
	}
	return linalg.AffineFromMat4(c), nil
}
