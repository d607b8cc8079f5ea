package abc

import (
	"encoding/binary"
	"io"
	"math"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// maxDepth bounds the nesting of objects and compound properties: real
// files nest a few dozen levels; a deeper tree is a broken (or hostile)
// file.
const maxDepth = 512

// Archive is an opened Alembic file: its time samplings and its object
// tree with every property's header. Samples are read on demand through
// the Archive, which keeps the io.ReaderAt; an Archive is not safe for
// concurrent use.
type Archive struct {
	// Version is the Alembic archive version (0, the only one there is),
	// and LibraryVersion the writing library's (10508 = 1.5.8).
	Version, LibraryVersion int32
	// Meta is the archive's metadata ("_ai_Application", "_ai_DCC_FPS", …).
	Meta Metadata
	// Samplings are the archive's time samplings; sampling 0 is the
	// identity (one sample at time 0, step 1).
	Samplings []TimeSampling
	// Root is the top object, "/", parent of every other.
	Root *Object

	c       container
	indexed []Metadata // the archive's shared metadata strings, 0 = empty
	scratch []byte
}

// Object is a node of the object hierarchy.
type Object struct {
	// Name is the object's name; Path its full name ("/pCube1/pCubeShape1").
	Name, Path string
	// Meta holds the schema ("schema": "AbcGeom_PolyMesh_v1", …).
	Meta Metadata
	// Props is the object's top compound property (for a schema object,
	// it holds the schema's compound, ".geom" or ".xform").
	Props *Property
	// Children are the objects below, in file order.
	Children []*Object
	// Parent is nil for Root.
	Parent *Object

	pos int64 // the object's group
}

// errf is an error at the object's group, naming the object.
func (o *Object) errf(msg string, args ...any) error {
	return errAt(o.pos, "%s: "+msg, append([]any{o.Path}, args...)...)
}

// Schema returns the object's schema name, "" when it has none.
func (o *Object) Schema() string { return o.Meta["schema"] }

// Walk calls fn for o and every object below it, parents first.
func (o *Object) Walk(fn func(*Object)) {
	fn(o)
	for _, k := range o.Children {
		k.Walk(fn)
	}
}

// Open reads an Alembic Ogawa file's header, time samplings and object
// tree with every property's header; samples are read later, on demand,
// from r. size is the file's size in bytes. Errors are format.ParseError
// with the byte offset of what is wrong. An HDF5 Alembic file is refused
// with format.ErrUnsupported.
func Open(r io.ReaderAt, size int64) (*Archive, error) {
	a := &Archive{c: container{r: r, size: size, seen: map[int64]bool{}}}
	rootPtr, err := a.c.header()
	if err != nil {
		return nil, err
	}
	root, err := a.c.group(rootPtr, 8, "archive")
	if err != nil {
		return nil, err
	}
	// Archive group: 0 archive version, 1 library version, 2 top object,
	// 3 archive metadata, 4 time samplings, 5 indexed metadata.
	if len(root.kids) < 6 || !root.isData(0) || !root.isData(1) || root.isData(2) ||
		!root.isData(3) || !root.isData(4) || !root.isData(5) {
		return nil, errAt(root.pos, "not an Alembic archive: its root group is not 2 data blocks, a group and 3 data blocks")
	}
	if a.Version, err = a.int32Block(root, 0, "archive version"); err != nil {
		return nil, err
	}
	if a.Version != 0 { // the only one Alembic has written
		return nil, errAt(root.pos, "%w: Alembic archive version %d", format.ErrUnsupported, a.Version)
	}
	if a.LibraryVersion, err = a.int32Block(root, 1, "library version"); err != nil {
		return nil, err
	}
	if a.LibraryVersion < 9999 {
		return nil, errAt(root.pos, "%w: written by Alembic library version %d, older than 1.0", format.ErrUnsupported, a.LibraryVersion)
	}
	if err := a.readSamplings(root); err != nil {
		return nil, err
	}
	if err := a.readIndexedMeta(root); err != nil {
		return nil, err
	}
	b, err := a.c.kidData(root, 3, "archive metadata")
	if err != nil {
		return nil, err
	}
	meta, err := a.c.bytes(b)
	if err != nil {
		return nil, err
	}
	a.Meta = parseMetadata(string(meta))
	top, err := a.c.kidGroup(root, 2, "top object")
	if err != nil {
		return nil, err
	}
	a.Root = &Object{Name: "ABC", Path: "/", Meta: a.Meta}
	if err := a.readObject(a.Root, top, 0); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *Archive) int32Block(g group, k int, what string) (int32, error) {
	b, err := a.c.kidData(g, k, what)
	if err != nil {
		return 0, err
	}
	if b.n != 4 {
		return 0, errAt(b.pos, "%s: %d bytes, want 4", what, b.n)
	}
	raw, err := a.c.bytes(b)
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(raw)), nil
}

// readSamplings reads the archive's time samplings: per sampling, a
// uint32 largest sample count, a float64 time per cycle, a uint32 count
// of times and the float64 times.
func (a *Archive) readSamplings(root group) error {
	b, err := a.c.kidData(root, 4, "time samplings")
	if err != nil {
		return err
	}
	buf, err := a.c.bytes(b)
	if err != nil {
		return err
	}
	for p := 0; p < len(buf); {
		at := b.pos + int64(p)
		if len(buf)-p < 16 {
			return errAt(at, "time sampling %d: %d bytes left, want at least 16", len(a.Samplings), len(buf)-p)
		}
		maxS := binary.LittleEndian.Uint32(buf[p:])
		tpc := math.Float64frombits(binary.LittleEndian.Uint64(buf[p+4:]))
		n := int(binary.LittleEndian.Uint32(buf[p+12:]))
		p += 16
		if n < 1 || n > (len(buf)-p)/8 {
			return errAt(at, "time sampling %d: %d sample times, %d bytes left", len(a.Samplings), n, len(buf)-p)
		}
		ts := TimeSampling{Cycle: tpc, Times: make([]float64, n), MaxSamples: int(maxS)}
		for i := range ts.Times {
			ts.Times[i] = math.Float64frombits(binary.LittleEndian.Uint64(buf[p+8*i:]))
			if math.IsNaN(ts.Times[i]) || math.IsInf(ts.Times[i], 0) {
				return errAt(at, "time sampling %d: time %d is %v", len(a.Samplings), i, ts.Times[i])
			}
		}
		p += 8 * n
		switch {
		case tpc == acyclicTPC:
			ts.Cycle = 0
		case !(tpc > 0) || math.IsInf(tpc, 0):
			return errAt(at, "time sampling %d: time per cycle %v is not positive", len(a.Samplings), tpc)
		}
		a.Samplings = append(a.Samplings, ts)
	}
	if len(a.Samplings) == 0 {
		a.Samplings = []TimeSampling{{Cycle: 1, Times: []float64{0}}}
	}
	return nil
}

// readIndexedMeta reads the archive's shared metadata strings: per
// string a byte count and the bytes. Index 0 is the empty metadata.
func (a *Archive) readIndexedMeta(root group) error {
	b, err := a.c.kidData(root, 5, "indexed metadata")
	if err != nil {
		return err
	}
	if b.n > 1<<16 {
		return errAt(b.pos, "indexed metadata: %d bytes, at most 65536 expected", b.n)
	}
	buf, err := a.c.bytes(b)
	if err != nil {
		return err
	}
	a.indexed = []Metadata{nil}
	for p := 0; p < len(buf); {
		n := int(buf[p])
		p++
		if n > len(buf)-p {
			return errAt(b.pos+int64(p-1), "indexed metadata %d: %d bytes, %d left", len(a.indexed), n, len(buf)-p)
		}
		a.indexed = append(a.indexed, parseMetadata(string(buf[p:p+n])))
		p += n
	}
	return nil
}

// readObject fills o from its group: child 0 is its compound property,
// children 1 to n-2 its child objects, and the last a data block with the
// child objects' headers followed by two 16-byte hashes.
func (a *Archive) readObject(o *Object, g group, depth int) error {
	o.pos = g.pos
	if depth > maxDepth {
		return errAt(g.pos, "object %s: nested more than %d deep", o.Path, maxDepth)
	}
	n := len(g.kids)
	if n > 0 && !g.isData(0) {
		pg, err := a.c.kidGroup(g, 0, "properties of "+o.Path)
		if err != nil {
			return err
		}
		o.Props = &Property{Name: "", Kind: Compound}
		if err := a.readCompound(o.Props, pg, o.Path, depth); err != nil {
			return err
		}
	}
	if n < 2 {
		return nil
	}
	if !g.isData(n - 1) {
		return errAt(g.kidRef(n-1), "object %s: its last child is a group, want the child objects' headers", o.Path)
	}
	b, err := a.c.kidData(g, n-1, "object headers of "+o.Path)
	if err != nil {
		return err
	}
	if b.n <= 32 {
		if n > 2 {
			return errAt(g.pos, "object %s: %d child groups but no child headers", o.Path, n-2)
		}
		return nil
	}
	buf, err := a.c.bytes(block{b.pos, b.n - 32})
	if err != nil {
		return err
	}
	for p := 0; p < len(buf); {
		at := b.pos + int64(p)
		if len(buf)-p < 4 {
			return errAt(at, "object headers of %s: %d bytes left, want a name size", o.Path, len(buf)-p)
		}
		ns := uint64(binary.LittleEndian.Uint32(buf[p:]))
		p += 4
		if ns == 0 || ns+1 > uint64(len(buf)-p) {
			return errAt(at, "object headers of %s: name of %d bytes, %d left", o.Path, ns, len(buf)-p)
		}
		k := &Object{Name: string(buf[p : p+int(ns)]), Parent: o}
		p += int(ns)
		if strings.Contains(k.Name, "/") || hasControl(k.Name) {
			return errAt(at, "object headers of %s: name %q has a slash or a control character", o.Path, k.Name)
		}
		k.Path = strings.TrimSuffix(o.Path, "/") + "/" + k.Name
		mi := buf[p]
		p++
		if mi == 0xff {
			if len(buf)-p < 4 {
				return errAt(at, "object %s: metadata size missing", k.Path)
			}
			ms := uint64(binary.LittleEndian.Uint32(buf[p:]))
			p += 4
			if ms > uint64(len(buf)-p) {
				return errAt(at, "object %s: metadata of %d bytes, %d left", k.Path, ms, len(buf)-p)
			}
			k.Meta = parseMetadata(string(buf[p : p+int(ms)]))
			p += int(ms)
		} else if int(mi) < len(a.indexed) {
			k.Meta = a.indexed[mi]
		} else {
			return errAt(at, "object %s: metadata index %d, the archive has %d", k.Path, mi, len(a.indexed))
		}
		o.Children = append(o.Children, k)
	}
	if len(o.Children) != n-2 {
		return errAt(b.pos, "object %s: %d child headers for %d child groups", o.Path, len(o.Children), n-2)
	}
	for i, k := range o.Children {
		if g.isData(i + 1) {
			return errAt(g.kidRef(i+1), "object %s: a data block where a group is expected", k.Path)
		}
		kg, err := a.c.kidGroup(g, i+1, "object "+k.Path)
		if err != nil {
			return err
		}
		if err := a.readObject(k, kg, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// Find returns the object at path ("/pCube1/pCubeShape1"), or nil.
func (a *Archive) Find(path string) *Object {
	var found *Object
	a.Root.Walk(func(o *Object) {
		if found == nil && o.Path == path {
			found = o
		}
	})
	return found
}

// hasControl reports whether a name has a control character, which would
// break the one-line errors that name it.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}
