package fbx

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/meshrig/meshrig/format"
)

// Magic is the first 23 bytes of a binary FBX file; the format version
// (uint32, little-endian) follows.
const Magic = "Kaydara FBX Binary  \x00\x1a\x00"

// headerLen is the magic and the version.
const headerLen = len(Magic) + 4

// maxDepth bounds node nesting: real files nest under ten levels.
const maxDepth = 64

// maxInflate is the most bytes DEFLATE can make of one byte (a run
// coded at its longest match): a zlib array declaring more than this
// many bytes per compressed byte cannot hold what it says.
const maxInflate = 1032

// Document is a binary FBX file as node records.
type Document struct {
	// Version is the format version, e.g. 7400 for FBX 7.4. From 7500 on
	// record headers use 64-bit offsets.
	Version int
	// Nodes are the top-level records (FBXHeaderExtension, Objects,
	// Connections, …).
	Nodes []*Node
}

// Node is one node record: a name, a property list and nested records.
type Node struct {
	Name     string
	Props    []Property
	Children []*Node
	// EmptyList marks a nested list without records: the FBX SDK writes
	// one for objects without children (and readers such as assimp
	// require it there).
	EmptyList bool
	// Offset is the record's byte offset in the file (0 for nodes not
	// read from one), for error messages.
	Offset int64
}

// Property is one typed value of a node's property list. Type is the
// type code; exactly the field that code names is set:
//
//	Y int16, C bool, I int32, L int64  → Int
//	F float32, D float64               → Float
//	S string, R raw bytes              → Bytes
//	f float32 array → F32, d float64 array → F64,
//	i int32 array → I32, l int64 array → I64, b bool array → Bool
type Property struct {
	Type   byte
	Int    int64
	Float  float64
	Bytes  []byte
	F32    []float32
	F64    []float64
	I32    []int32
	I64    []int64
	Bool   []bool
	Offset int64
}

// Child returns n's first child named name, or nil.
func (n *Node) Child(name string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Find returns the first top-level node named name, or nil.
func (d *Document) Find(name string) *Node {
	for _, c := range d.Nodes {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// errAt returns a format.ParseError at byte off.
func errAt(off int64, f string, args ...any) error {
	return &format.ParseError{Offset: off, Err: fmt.Errorf(f, args...)}
}

// decoder walks the bytes of one file.
type decoder struct {
	data []byte
	wide bool // 64-bit record header fields (version ≥ 7500)
}

// Decode parses the node records of a binary FBX file. Every offset and
// length is checked against len(data) before anything is allocated; an
// error is a *format.ParseError with the byte offset of the problem
// (wrapping format.ErrTruncated when the data ends early). ASCII FBX
// (a text file starting with "; FBX" or FBXHeaderExtension) goes to
// DecodeASCII.
func Decode(data []byte) (*Document, error) {
	if k := min(len(data), len(Magic)); len(data) < headerLen && string(data[:k]) == Magic[:k] {
		return nil, errAt(int64(len(data)), "FBX header: %w", format.ErrTruncated)
	}
	if !bytes.HasPrefix(data, []byte(Magic)) {
		if looksASCII(data) {
			return DecodeASCII(data)
		}
		return nil, errAt(0, "not a binary FBX file (no %q header)", Magic[:18])
	}
	v := int(binary.LittleEndian.Uint32(data[len(Magic):]))
	if v < 7000 || v >= 8000 {
		return nil, errAt(int64(len(Magic)), "FBX version %d: %w (meshrig reads 7.x)", v, format.ErrUnsupported)
	}
	d := &decoder{data: data, wide: v >= 7500}
	doc := &Document{Version: v}
	pos := int64(headerLen)
	for {
		n, next, end, err := d.node(pos, 0)
		if err != nil {
			return nil, err
		}
		if end {
			break
		}
		doc.Nodes = append(doc.Nodes, n)
		pos = next
	}
	return doc, nil
}

// looksASCII reports a text FBX: it starts with a comment or a node.
func looksASCII(data []byte) bool {
	s := bytes.TrimLeft(data[:min(len(data), 256)], " \t\r\n\xef\xbb\xbf")
	return bytes.HasPrefix(s, []byte("; FBX")) || bytes.HasPrefix(s, []byte("FBXHeaderExtension:"))
}

// recordLen is the size of a record header without its name, and of the
// null record that closes a list.
func (d *decoder) recordLen() int64 {
	if d.wide {
		return 25
	}
	return 13
}

// need checks that n bytes start at pos.
func (d *decoder) need(pos, n int64, what string) error {
	if pos < 0 || n < 0 || pos > int64(len(d.data)) || n > int64(len(d.data))-pos {
		return errAt(min(pos, int64(len(d.data))), "%s: %d bytes needed, %d remain: %w", what, n, int64(len(d.data))-min(pos, int64(len(d.data))), format.ErrTruncated)
	}
	return nil
}

func (d *decoder) u32(pos int64) uint64 { return uint64(binary.LittleEndian.Uint32(d.data[pos:])) }

// word reads a record header field: 32 or 64 bits.
func (d *decoder) word(pos int64) (uint64, int64) {
	if d.wide {
		return binary.LittleEndian.Uint64(d.data[pos:]), pos + 8
	}
	return d.u32(pos), pos + 4
}

// node reads the record at pos. end reports the null record that closes
// the list; next is the offset after the record.
func (d *decoder) node(pos int64, depth int) (n *Node, next int64, end bool, err error) {
	hl := d.recordLen()
	if err := d.need(pos, hl, "node record header"); err != nil {
		return nil, 0, false, err
	}
	start := pos
	endOff, p := d.word(pos)
	nprops, p := d.word(p)
	plen, p := d.word(p)
	nameLen := int64(d.data[p])
	p++
	if endOff == 0 && nprops == 0 && plen == 0 && nameLen == 0 {
		return nil, p, true, nil
	}
	if depth >= maxDepth {
		return nil, 0, false, errAt(start, "nodes nested deeper than %d levels", maxDepth)
	}
	size := int64(len(d.data))
	if endOff > uint64(size) {
		return nil, 0, false, errAt(start, "node record ends at byte %d, past the end of the file (%d bytes): %w", endOff, size, format.ErrTruncated)
	}
	e := int64(endOff)
	if e < start+hl+nameLen {
		return nil, 0, false, errAt(start, "node record ends at byte %d, before its own header ends", e)
	}
	if plen > uint64(e-(start+hl+nameLen)) {
		return nil, 0, false, errAt(start, "property list of %d bytes runs past the record's end at byte %d", plen, e)
	}
	// Each property takes at least 2 bytes (a code and a 1-byte value).
	if nprops > plen/2 {
		return nil, 0, false, errAt(start, "%d properties cannot fit in %d bytes", nprops, plen)
	}
	n = &Node{Name: string(d.data[p : p+nameLen]), Offset: start}
	p += nameLen
	propEnd := p + int64(plen)
	if nprops > 0 {
		n.Props = make([]Property, 0, nprops)
	}
	for k := uint64(0); k < nprops; k++ {
		var pr Property
		if pr, p, err = d.property(p, propEnd); err != nil {
			return nil, 0, false, err
		}
		n.Props = append(n.Props, pr)
	}
	if p != propEnd {
		return nil, 0, false, errAt(p, "node %q: properties end at byte %d, the record says %d", n.Name, p, propEnd)
	}
	if p == e {
		return n, e, false, nil
	}
	// A nested list, closed by a null record that ends the record.
	for {
		c, q, last, err := d.node(p, depth+1)
		if err != nil {
			return nil, 0, false, err
		}
		if last {
			if q != e {
				return nil, 0, false, errAt(p, "node %q: its nested list ends at byte %d, the record says %d", n.Name, q, e)
			}
			n.EmptyList = len(n.Children) == 0
			return n, e, false, nil
		}
		if q > e {
			return nil, 0, false, errAt(c.Offset, "node %q runs past the end of its parent %q at byte %d", c.Name, n.Name, e)
		}
		n.Children = append(n.Children, c)
		p = q
	}
}
