package fbx

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"math"
)

// encoder writes node records, Decode's counterpart: what Write and the
// tests' hand-made files use.
type encoder struct {
	buf  bytes.Buffer
	wide bool
	// zlib compresses arrays of at least this many elements (0: never).
	zlib int
}

// encode returns doc's node records as a binary FBX file without the
// footer (readers stop at the top-level null record), compressing arrays
// of at least zlibFrom elements (0: none).
func encode(doc *Document, zlibFrom int) []byte {
	e := &encoder{wide: doc.Version >= 7500, zlib: zlibFrom}
	e.buf.WriteString(Magic)
	e.u32(uint32(doc.Version))
	for _, n := range doc.Nodes {
		e.node(n)
	}
	e.null()
	return e.buf.Bytes()
}

func (e *encoder) u32(v uint32) { _ = binary.Write(&e.buf, binary.LittleEndian, v) }

func (e *encoder) word(v uint64) {
	if e.wide {
		_ = binary.Write(&e.buf, binary.LittleEndian, v)
	} else {
		e.u32(uint32(v))
	}
}

func (e *encoder) null() {
	n := 13
	if e.wide {
		n = 25
	}
	e.buf.Write(make([]byte, n))
}

// node writes a record, patching its end offset and property list length
// once they are known.
func (e *encoder) node(n *Node) {
	start := e.buf.Len()
	e.word(0)
	e.word(uint64(len(n.Props)))
	e.word(0)
	e.buf.WriteByte(byte(len(n.Name)))
	e.buf.WriteString(n.Name)
	p0 := e.buf.Len()
	for _, p := range n.Props {
		e.prop(p)
	}
	plen := e.buf.Len() - p0
	if len(n.Children) > 0 || n.EmptyList {
		for _, c := range n.Children {
			e.node(c)
		}
		e.null()
	}
	b := e.buf.Bytes()
	if e.wide {
		binary.LittleEndian.PutUint64(b[start:], uint64(e.buf.Len()))
		binary.LittleEndian.PutUint64(b[start+16:], uint64(plen))
	} else {
		binary.LittleEndian.PutUint32(b[start:], uint32(e.buf.Len()))
		binary.LittleEndian.PutUint32(b[start+8:], uint32(plen))
	}
}

func (e *encoder) prop(p Property) {
	le := binary.LittleEndian
	e.buf.WriteByte(p.Type)
	var raw []byte
	count := 0
	switch p.Type {
	case 'Y':
		_ = binary.Write(&e.buf, le, int16(p.Int))
		return
	case 'C':
		e.buf.WriteByte(byte(p.Int))
		return
	case 'I':
		_ = binary.Write(&e.buf, le, int32(p.Int))
		return
	case 'L':
		_ = binary.Write(&e.buf, le, p.Int)
		return
	case 'F':
		_ = binary.Write(&e.buf, le, float32(p.Float))
		return
	case 'D':
		_ = binary.Write(&e.buf, le, p.Float)
		return
	case 'S', 'R':
		e.u32(uint32(len(p.Bytes)))
		e.buf.Write(p.Bytes)
		return
	case 'f':
		count = len(p.F32)
		for _, v := range p.F32 {
			raw = le.AppendUint32(raw, math.Float32bits(v))
		}
	case 'd':
		count = len(p.F64)
		for _, v := range p.F64 {
			raw = le.AppendUint64(raw, math.Float64bits(v))
		}
	case 'i':
		count = len(p.I32)
		for _, v := range p.I32 {
			raw = le.AppendUint32(raw, uint32(v))
		}
	case 'l':
		count = len(p.I64)
		for _, v := range p.I64 {
			raw = le.AppendUint64(raw, uint64(v))
		}
	case 'b':
		count = len(p.Bool)
		for _, v := range p.Bool {
			if v {
				raw = append(raw, 1)
			} else {
				raw = append(raw, 0)
			}
		}
	}
	e.u32(uint32(count))
	if e.zlib > 0 && count >= e.zlib {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		_, _ = w.Write(raw)
		_ = w.Close()
		e.u32(1)
		e.u32(uint32(z.Len()))
		e.buf.Write(z.Bytes())
		return
	}
	e.u32(0)
	e.u32(uint32(len(raw)))
	e.buf.Write(raw)
}
