package abc

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// PolyMesh is a PolyMesh object: its topology (sample 0 of ".faceCounts"
// and ".faceIndices", in the file's clockwise order) and where its
// per-sample positions, UVs and normals lie.
type PolyMesh struct {
	Object *Object
	// Counts are the polygons' vertex counts; Indices their vertices,
	// polygon after polygon, as stored: clockwise seen from outside
	// (Maya's AbcExport reverses its counter-clockwise order). Polygons
	// gives them counter-clockwise.
	Counts, Indices []int32
	// Verts is the number of vertices (points of P's sample 0).
	Verts int
	// Samples is P's sample count, with P's time sampling Sampling.
	Samples, Sampling int
	// UV and Normals are the "uv" and "N" parameters, nil when absent.
	UV, Normals *Param

	p, counts, indices *Property
}

// Param is a geometry parameter (UVs, normals): values per vertex, per
// face corner, per face or for the whole mesh, optionally through indices.
type Param struct {
	Name string
	// Scope is Alembic's geoScope: "fvr" face-varying (per corner), "vtx"
	// or "var" per vertex, "uni" per face, "con" one value.
	Scope string
	// Extent is the floats per value: 2 for UVs, 3 for normals.
	Extent int

	vals, indices *Property
}

// Attribute is one sample of a Param: Values has Extent floats per value;
// Indices, when not nil, picks a value per element (corner, vertex, …),
// else element k has value k.
type Attribute struct {
	Scope   string
	Extent  int
	Values  []float32
	Indices []int32
}

// IsPolyMesh reports whether o is a PolyMesh object.
func IsPolyMesh(o *Object) bool { return strings.HasPrefix(o.Schema(), "AbcGeom_PolyMesh_") }

// PolyMesh reads a PolyMesh object's topology (its sample 0) and checks
// it: counts of at least 3 that add up to the indices, indices within P's
// points.
func (a *Archive) PolyMesh(o *Object) (*PolyMesh, error) {
	g := o.Props.Prop(".geom")
	if g == nil || g.Kind != Compound {
		return nil, o.errf("a PolyMesh without its .geom compound")
	}
	m := &PolyMesh{Object: o, p: g.Prop("P"), counts: g.Prop(".faceCounts"), indices: g.Prop(".faceIndices")}
	for _, q := range []struct {
		p    *Property
		name string
	}{{m.p, "P"}, {m.counts, ".faceCounts"}, {m.indices, ".faceIndices"}} {
		if q.p == nil || q.p.Kind != Array || q.p.Samples == 0 {
			return nil, o.errf("the PolyMesh has no %s array", q.name)
		}
	}
	if m.p.Extent != 3 {
		return nil, m.p.errf("%d values per point, want 3", m.p.Extent)
	}
	m.Samples, m.Sampling = m.p.Samples, m.p.Sampling
	if err := a.readTopology(m, 0, &m.Counts, &m.Indices); err != nil {
		return nil, err
	}
	_, n, err := a.raw(m.p, 0)
	if err != nil {
		return nil, err
	}
	m.Verts = n / 3
	for k, v := range m.Indices {
		if v < 0 || int(v) >= m.Verts {
			return nil, m.indices.errf("sample 0: face index %d is %d, P has %d points", k, v, m.Verts)
		}
	}
	var poly []int
	at := 0
	for k, c := range m.Counts {
		poly = poly[:0]
		for _, v := range m.Indices[at : at+int(c)] {
			poly = append(poly, int(v))
		}
		at += int(c)
		if r := mesh.FirstRepeat(poly); r >= 0 {
			return nil, m.indices.errf("sample 0: face %d uses vertex %d twice", k+1, poly[r])
		}
	}
	m.UV = param(g, "uv", 2)
	m.Normals = param(g, "N", 3)
	return m, nil
}

// readTopology reads the counts and indices of sample i and checks that
// they agree.
func (a *Archive) readTopology(m *PolyMesh, i int, counts, indices *[]int32) error {
	var err error
	if *counts, err = a.Int32s(m.counts, min(i, m.counts.Samples-1), *counts); err != nil {
		return err
	}
	if *indices, err = a.Int32s(m.indices, min(i, m.indices.Samples-1), *indices); err != nil {
		return err
	}
	total := 0
	for k, c := range *counts {
		if c < 3 {
			return m.counts.errf("sample %d: face %d has %d vertices, need at least 3", i, k+1, c)
		}
		total += int(c)
		if total > len(*indices) {
			break
		}
	}
	if total != len(*indices) {
		return m.counts.errf("sample %d: face counts add up to %d, there are %d face indices", i, total, len(*indices))
	}
	return nil
}

// param finds a geometry parameter: an array of values, or a compound
// with ".vals" and ".indices".
func param(g *Property, name string, extent int) *Param {
	q := g.Prop(name)
	if q == nil {
		return nil
	}
	p := &Param{Name: name, Scope: q.Meta["geoScope"], Extent: extent}
	switch q.Kind {
	case Array:
		p.vals = q
	case Compound:
		p.vals, p.indices = q.Prop(".vals"), q.Prop(".indices")
		if p.vals == nil || p.vals.Kind != Array {
			return nil
		}
		if p.indices != nil && p.indices.Kind != Array {
			p.indices = nil
		}
		if p.Scope == "" {
			p.Scope = p.vals.Meta["geoScope"]
		}
	default:
		return nil
	}
	if p.vals.Extent != 1 && p.vals.Extent != extent {
		return nil
	}
	return p
}

// Topology returns the first sample whose topology differs from sample
// 0's (another point count, other face counts or indices) with what
// differs, or -1 when every sample has the same. Only stored samples are
// read: a repeated sample is its stored one.
func (a *Archive) Topology(m *PolyMesh) (int, string, error) {
	first := -1
	var what string
	note := func(i int, w string) {
		if first < 0 || i < first {
			first, what = i, w
		}
	}
	for s := 1; s <= m.p.stored(m.p.Samples-1); s++ {
		i := int(m.p.first) + s - 1
		_, n, err := a.raw(m.p, i)
		if err != nil {
			return i, "", err
		}
		if n/3 != m.Verts {
			note(i, fmt.Sprintf("%d points, sample 0 has %d", n/3, m.Verts))
			break
		}
	}
	var counts, indices []int32
	for _, q := range []*Property{m.counts, m.indices} {
		for s := 1; s <= q.stored(q.Samples-1); s++ {
			i := int(q.first) + s - 1
			if err := a.readTopology(m, i, &counts, &indices); err != nil {
				return i, "", err
			}
			if !slices.Equal(counts, m.Counts) || !slices.Equal(indices, m.Indices) {
				note(i, "other faces")
				break
			}
		}
	}
	return first, what, nil
}

// Polygons returns the polygons counter-clockwise seen from outside: each
// polygon's stored vertices reversed, which restores Maya's order and
// first vertex.
func (m *PolyMesh) Polygons() [][]int {
	out := make([][]int, len(m.Counts))
	at := 0
	for k, c := range m.Counts {
		p := make([]int, c)
		for j := range p {
			p[j] = int(m.Indices[at+int(c)-1-j])
		}
		out[k] = p
		at += int(c)
	}
	return out
}

// Positions reads P at sample i into dst, resized, in the object's own
// space. A sample whose point count is not Verts is an error naming it.
func (a *Archive) Positions(m *PolyMesh, i int, dst []linalg.Vec3) ([]linalg.Vec3, error) {
	buf, n, err := a.raw(m.p, i)
	if err != nil {
		return dst, err
	}
	if n/3 != m.Verts {
		return dst, m.p.errf("sample %d: %d points, sample 0 has %d: the topology changes", i, n/3, m.Verts)
	}
	dst = resize(dst, m.Verts)
	if m.p.POD == Float32 {
		// Infinities and NaNs have every exponent bit set: one test per
		// float32 before decoding, cheaper than one per float64 after.
		for k := 0; k+4 <= len(buf); k += 4 {
			if buf[k+3]&0x7f == 0x7f && buf[k+2]&0x80 != 0 {
				v := k / 12
				return dst, m.p.errf("sample %d: point %d is not finite", i, v)
			}
		}
		decodeV3f(buf, m.p.POD, dst)
		return dst, nil
	}
	decodeV3f(buf, m.p.POD, dst)
	for k, v := range dst {
		if !v.IsFinite() {
			return dst, m.p.errf("sample %d: point %d is not finite %v", i, k, v)
		}
	}
	return dst, nil
}

// decodeV3f turns little-endian float32 (or float64, float16) triples into
// vectors.
func decodeV3f(buf []byte, pod POD, dst []linalg.Vec3) {
	switch pod {
	case Float32:
		for k := range dst {
			b := buf[12*k : 12*k+12]
			dst[k] = linalg.Vec3{
				float64(math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)),
				float64(math.Float32frombits(uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24)),
				float64(math.Float32frombits(uint32(b[8]) | uint32(b[9])<<8 | uint32(b[10])<<16 | uint32(b[11])<<24)),
			}
		}
	case Float64:
		for k := range dst {
			for j := 0; j < 3; j++ {
				b := buf[24*k+8*j:]
				u := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
				dst[k][j] = math.Float64frombits(u)
			}
		}
	case Float16:
		for k := range dst {
			for j := 0; j < 3; j++ {
				b := buf[6*k+2*j:]
				dst[k][j] = float64(half(uint16(b[0]) | uint16(b[1])<<8))
			}
		}
	default:
		for k := range dst {
			dst[k] = linalg.Vec3{math.NaN(), math.NaN(), math.NaN()}
		}
	}
}

// Attribute reads sample i of a parameter (clamped to its last sample),
// with face-varying values put in Polygons' corner order. It checks the
// element count against the scope: corners, vertices or faces.
func (a *Archive) Attribute(m *PolyMesh, p *Param, i int) (*Attribute, error) {
	at := &Attribute{Scope: p.Scope, Extent: p.Extent}
	var err error
	if at.Values, err = a.Float32s(p.vals, min(i, p.vals.Samples-1), nil); err != nil {
		return nil, err
	}
	if len(at.Values)%p.Extent != 0 {
		return nil, p.vals.errf("%d floats, not a whole number of %d-float values", len(at.Values), p.Extent)
	}
	nv := len(at.Values) / p.Extent
	elems := nv
	if p.indices != nil && p.indices.Samples > 0 {
		if at.Indices, err = a.Int32s(p.indices, min(i, p.indices.Samples-1), nil); err != nil {
			return nil, err
		}
		for k, v := range at.Indices {
			if v < 0 || int(v) >= nv {
				return nil, p.indices.errf("index %d is %d, there are %d values", k, v, nv)
			}
		}
		elems = len(at.Indices)
	}
	want := -1
	switch p.Scope {
	case "fvr":
		want = len(m.Indices)
	case "vtx", "var":
		want = m.Verts
	case "uni":
		want = len(m.Counts)
	case "con":
		want = 1
	}
	if want >= 0 && elems != want {
		return nil, p.vals.errf("%d values for scope %q, want %d", elems, p.Scope, want)
	}
	if p.Scope == "fvr" {
		reverseCorners(m.Counts, at, p.Extent)
	}
	return at, nil
}

// reverseCorners reverses each polygon's corners, as Polygons does.
func reverseCorners(counts []int32, at *Attribute, extent int) {
	start := 0
	for _, c := range counts {
		for a, b := start, start+int(c)-1; a < b; a, b = a+1, b-1 {
			if at.Indices != nil {
				at.Indices[a], at.Indices[b] = at.Indices[b], at.Indices[a]
				continue
			}
			for j := 0; j < extent; j++ {
				at.Values[a*extent+j], at.Values[b*extent+j] = at.Values[b*extent+j], at.Values[a*extent+j]
			}
		}
		start += int(c)
	}
}
