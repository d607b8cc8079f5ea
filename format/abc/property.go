package abc

import (
	"encoding/binary"
)

// PropertyKind is a property's kind: a compound of other properties, a
// scalar (one value of Extent PODs per sample) or an array (any number of
// values per sample).
type PropertyKind uint8

// The property kinds, numbered as Alembic numbers them (both 2 and 3 are
// arrays in a file).
const (
	Compound PropertyKind = iota
	Scalar
	Array
)

// POD is the plain data type of a property's values.
type POD uint8

// The PODs, numbered as Alembic numbers them.
const (
	Bool POD = iota
	Uint8
	Int8
	Uint16
	Int16
	Uint32
	Int32
	Uint64
	Int64
	Float16
	Float32
	Float64
	String
	Wstring
)

// Size returns the bytes of one POD value; 0 for strings.
func (p POD) Size() int {
	switch p {
	case Bool, Uint8, Int8:
		return 1
	case Uint16, Int16, Float16:
		return 2
	case Uint32, Int32, Float32:
		return 4
	case Uint64, Int64, Float64:
		return 8
	}
	return 0
}

var podNames = [...]string{"bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float16", "float32", "float64", "string", "wstring"}

func (p POD) String() string {
	if int(p) < len(podNames) {
		return podNames[p]
	}
	return "pod?"
}

// Property is a property's header and where its samples lie.
type Property struct {
	Name string
	Kind PropertyKind
	// POD and Extent are the value type: Extent PODs make one value (3
	// float32 for a point).
	POD    POD
	Extent int
	Meta   Metadata
	// Sampling indexes Archive.Samplings.
	Sampling int
	// Samples is the number of samples (the writer's count; repeated
	// samples are stored once).
	Samples int
	// Props are a compound's properties, in file order.
	Props []*Property

	// first and last changed sample: samples before first are sample 0,
	// samples from last on are sample last; stored index = i-first+1.
	first, last uint32
	g           group // samples (scalar: one block each; array: data, dims)
	path        string
}

// Prop returns the compound's property of this name, or nil.
func (p *Property) Prop(name string) *Property {
	if p == nil {
		return nil
	}
	for _, q := range p.Props {
		if q.Name == name {
			return q
		}
	}
	return nil
}

// errf is an error at the property's group, naming the property.
func (p *Property) errf(msg string, args ...any) error {
	return errAt(p.g.pos, "%s: "+msg, append([]any{p.path}, args...)...)
}

// Path is the property's place for errors: the object path and the
// property names ("/pCube1/pCubeShape1:.geom/P").
func (p *Property) Path() string { return p.path }

// Constant reports whether every sample is the same (stored once).
func (p *Property) Constant() bool { return p.first == 0 && p.last == 0 }

// stored maps a sample index to its stored index, as Alembic does.
func (p *Property) stored(i int) int {
	u := uint32(i)
	switch {
	case u < p.first, p.first == 0 && p.last == 0:
		return 0
	case u >= p.last:
		return int(p.last - p.first + 1)
	}
	return int(u - p.first + 1)
}

// readCompound reads a compound property's group: children 0 to n-2 are
// its properties' groups, the last a data block of their headers.
func (a *Archive) readCompound(p *Property, g group, path string, depth int) error {
	if depth > maxDepth {
		return errAt(g.pos, "%s: properties nested more than %d deep", path, maxDepth)
	}
	p.g = g
	p.path = path
	n := len(g.kids)
	if n == 0 {
		return nil
	}
	if !g.isData(n - 1) {
		return errAt(g.kidRef(n-1), "%s: the last child of a compound is a group, want its headers", path)
	}
	b, err := a.c.kidData(g, n-1, "property headers of "+path)
	if err != nil {
		return err
	}
	buf, err := a.c.bytes(b)
	if err != nil {
		return err
	}
	if err := a.parsePropHeaders(p, buf, b.pos, path); err != nil {
		return err
	}
	if len(p.Props) != n-1 {
		return errAt(b.pos, "%s: %d property headers for %d property groups", path, len(p.Props), n-1)
	}
	for i, q := range p.Props {
		if g.isData(i) {
			return errAt(g.kidRef(i), "%s: a data block where property %q's group is expected", path, q.Name)
		}
		sep := "/"
		if p.Name == "" {
			sep = ":"
		}
		qpath := path + sep + q.Name
		qg, err := a.c.kidGroup(g, i, "property "+qpath)
		if err != nil {
			return err
		}
		if q.Kind == Compound {
			if err := a.readCompound(q, qg, qpath, depth+1); err != nil {
				return err
			}
			continue
		}
		q.g, q.path = qg, qpath
		if err := q.checkStored(); err != nil {
			return err
		}
	}
	return nil
}

// checkStored makes sure every sample index maps to a stored sample, so
// that later reads fail only on the sample's own bytes.
func (p *Property) checkStored() error {
	per := 1
	if p.Kind == Array {
		per = 2
	}
	if p.Samples == 0 {
		return nil
	}
	need := p.stored(p.Samples-1) + 1
	if len(p.g.kids) < per*need {
		return errAt(p.g.pos, "%s: %d samples need %d stored, the group holds %d", p.path, p.Samples, need, len(p.g.kids)/per)
	}
	return nil
}

// parsePropHeaders reads a compound's property headers. Each starts with
// a uint32 of packed bits: kind (bits 0-1), the byte size of the counts
// that follow (2-3: 1, 2 or 4 bytes), POD (4-7), a sampling index follows
// (8), first and last changed samples follow (9), homogeneous (10), all
// samples alike (11), extent (12-19), metadata index (20-27, 0xff: the
// metadata follows inline). Then come the sample count, first and last
// changed, sampling index, name size and name, and inline metadata.
func (a *Archive) parsePropHeaders(parent *Property, buf []byte, base int64, path string) error {
	for p := 0; p < len(buf); {
		at := base + int64(p)
		bad := func(msg string, args ...any) error {
			return errAt(at, "property header %d of %s: "+msg, append([]any{len(parent.Props) + 1, path}, args...)...)
		}
		if len(buf)-p < 4 {
			return bad("%d bytes left, want 4", len(buf)-p)
		}
		info := binary.LittleEndian.Uint32(buf[p:])
		p += 4
		hint := (info >> 2) & 3
		count := func() (uint32, bool) {
			var v uint32
			switch hint {
			case 0:
				if p+1 > len(buf) {
					return 0, false
				}
				v = uint32(buf[p])
				p++
			case 1:
				if p+2 > len(buf) {
					return 0, false
				}
				v = uint32(binary.LittleEndian.Uint16(buf[p:]))
				p += 2
			case 2:
				if p+4 > len(buf) {
					return 0, false
				}
				v = binary.LittleEndian.Uint32(buf[p:])
				p += 4
			default:
				return 0, false
			}
			return v, true
		}
		q := &Property{}
		switch info & 3 {
		case 0:
			q.Kind = Compound
		case 1:
			q.Kind = Scalar
		default:
			q.Kind = Array
		}
		if q.Kind != Compound {
			q.POD = POD((info >> 4) & 0xf)
			if q.POD > Wstring {
				return bad("unknown POD type %d", q.POD)
			}
			q.Extent = int((info >> 12) & 0xff)
			if q.Extent == 0 {
				return bad("extent 0")
			}
			next, ok := count()
			if !ok {
				return bad("sample count cut short")
			}
			q.Samples = int(next)
			switch {
			case info&0x200 != 0:
				f, ok1 := count()
				l, ok2 := count()
				if !ok1 || !ok2 {
					return bad("changed samples cut short")
				}
				q.first, q.last = f, l
			case info&0x800 != 0:
				q.first, q.last = 0, 0
			default:
				q.first = 1
				if next > 0 {
					q.last = next - 1
				}
			}
			if info&0x100 != 0 {
				ts, ok := count()
				if !ok {
					return bad("sampling index cut short")
				}
				if int(ts) >= len(a.Samplings) {
					return bad("sampling index %d, the archive has %d", ts, len(a.Samplings))
				}
				q.Sampling = int(ts)
			}
			if ts := a.Samplings[q.Sampling]; ts.Cycle == 0 && q.Samples > len(ts.Times) {
				return bad("property %q: %d samples, its acyclic sampling has %d times", q.Name, q.Samples, len(ts.Times))
			}
		}
		ns, ok := count()
		if !ok || ns == 0 || int(ns) > len(buf)-p {
			return bad("bad name size")
		}
		q.Name = string(buf[p : p+int(ns)])
		p += int(ns)
		if hasControl(q.Name) {
			return bad("name %q has a control character", q.Name)
		}
		mi := (info >> 20) & 0xff
		if mi == 0xff {
			ms, ok := count()
			if !ok || int(ms) > len(buf)-p {
				return bad("property %q: bad metadata size", q.Name)
			}
			q.Meta = parseMetadata(string(buf[p : p+int(ms)]))
			p += int(ms)
		} else if int(mi) < len(a.indexed) {
			q.Meta = a.indexed[mi]
		} else {
			return bad("property %q: metadata index %d, the archive has %d", q.Name, mi, len(a.indexed))
		}
		parent.Props = append(parent.Props, q)
	}
	return nil
}
