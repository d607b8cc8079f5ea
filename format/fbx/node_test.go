package fbx

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// everyType is a document holding a property of every type, nested
// lists, an empty node and arrays of every element type.
func everyType(version int) *Document {
	return &Document{Version: version, Nodes: []*Node{
		nd("Scalars", []Property{
			{Type: 'Y', Int: -7}, {Type: 'C', Int: 1}, {Type: 'I', Int: -123456}, {Type: 'F', Float: 1.5},
			{Type: 'D', Float: -2.25}, {Type: 'L', Int: -1 << 40}, {Type: 'S', Bytes: []byte("name\x00\x01Class")},
			{Type: 'R', Bytes: []byte{0, 1, 2, 255}},
		}),
		nd("Arrays", []Property{
			{Type: 'f', F32: []float32{1, -2, 3.5}}, {Type: 'd', F64: []float64{1e-300, 2, -3}},
			{Type: 'i', I32: []int32{1, -2, 3, -4, 5}}, {Type: 'l', I64: []int64{1 << 50, -9}},
			{Type: 'b', Bool: []bool{true, false, true}}, {Type: 'd', F64: []float64{}},
		}),
		nd("Outer", nil, nd("Inner", ps(1), nd("Leaf", ps("x"))), nd("Empty", nil)),
	}}
}

// strip clears what Decode adds (offsets) so documents compare.
func strip(ns []*Node) {
	for _, n := range ns {
		n.Offset = 0
		for k := range n.Props {
			n.Props[k].Offset = 0
			if n.Props[k].Type == 'd' && len(n.Props[k].F64) == 0 {
				n.Props[k].F64 = []float64{}
			}
			// An empty string is one value whether a decoder gives
			// nil or []byte{} (the ASCII and binary ones differ).
			if len(n.Props[k].Bytes) == 0 {
				n.Props[k].Bytes = nil
			}
		}
		strip(n.Children)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	for _, v := range []int{7100, 7400, 7500, 7700} {
		for _, z := range []int{0, 1, 3} {
			want := everyType(v)
			got, err := Decode(encode(want, z))
			if err != nil {
				t.Fatalf("v%d zlib≥%d: %v", v, z, err)
			}
			strip(got.Nodes)
			if got.Version != v || !reflect.DeepEqual(got.Nodes, want.Nodes) {
				t.Errorf("v%d zlib≥%d: round trip differs", v, z)
			}
		}
	}
}

// offsetOf reports the byte offset of a *format.ParseError in err.
func offsetOf(t *testing.T, err error) int64 {
	t.Helper()
	var pe *format.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %q is not a ParseError", err)
	}
	if pe.Offset < 0 {
		t.Fatalf("error %q has no offset", err)
	}
	return pe.Offset
}

// TestDecodeTruncated: a file cut at every byte is one error with an
// offset, never a panic.
func TestDecodeTruncated(t *testing.T) {
	for _, v := range []int{7400, 7500} {
		data := encode(tinyRig(v), 3)
		for n := 0; n < len(data); n++ {
			_, err := Decode(data[:n])
			if err == nil {
				t.Fatalf("v%d: cut at %d of %d bytes read without error", v, n, len(data))
			}
			if off := offsetOf(t, err); off > int64(n) {
				t.Fatalf("v%d cut at %d: offset %d past the end", v, n, off)
			}
			if n >= headerLen && !errors.Is(err, format.ErrTruncated) {
				t.Fatalf("v%d cut at %d: %v does not say truncated", v, n, err)
			}
		}
	}
}

// arrayAt returns the offset of the first array property of type code in
// data, found by decoding.
func arrayAt(t *testing.T, data []byte, code byte) int64 {
	doc, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var find func([]*Node) int64
	find = func(ns []*Node) int64 {
		for _, n := range ns {
			for _, p := range n.Props {
				if p.Type == code {
					return p.Offset
				}
			}
			if o := find(n.Children); o >= 0 {
				return o
			}
		}
		return -1
	}
	o := find(doc.Nodes)
	if o < 0 {
		t.Fatalf("no %q array", code)
	}
	return o
}

func TestDecodeBroken(t *testing.T) {
	le := binary.LittleEndian
	base := encode(everyType(7400), 0)
	zbase := encode(everyType(7400), 1)
	dAt := arrayAt(t, base, 'd')
	zAt := arrayAt(t, zbase, 'd')
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"magic", func(b []byte) []byte { b[3] = 'x'; return b }, "not a binary FBX"},
		{"version", func(b []byte) []byte { le.PutUint32(b[23:], 6100); return b }, "version 6100"},
		{"array count past the end", func(b []byte) []byte { le.PutUint32(b[dAt+1:], 1<<30); return b }, "stored in"},
		{"array bytes past the list", func(b []byte) []byte { le.PutUint32(b[dAt+9:], 1<<30); return b }, "runs past"},
		{"array encoding", func(b []byte) []byte { b[dAt+5] = 9; return b }, "encoding 9"},
		{"flipped array header byte", func(b []byte) []byte { b[dAt+2] ^= 0x40; return b }, "stored in"},
		{"zlib array inflates past its size", func(b []byte) []byte {
			le.PutUint32(zbase[zAt+1:], le.Uint32(zbase[zAt+1:])-1)
			return zbase
		}, "inflates past"},
		{"zlib array inflates short", func(b []byte) []byte {
			le.PutUint32(zbase[zAt+1:], le.Uint32(zbase[zAt+1:])+1)
			return zbase
		}, "fewer than"},
		{"zlib array larger than its bytes can make", func(b []byte) []byte {
			le.PutUint32(zbase[zAt+1:], 1<<31)
			return zbase
		}, "cannot come from"},
		{"end offset backwards", func(b []byte) []byte { le.PutUint32(b[27:], 20); return b }, "before its own header"},
		{"end offset past the file", func(b []byte) []byte { le.PutUint32(b[27:], uint32(len(b)+5)); return b }, "past the end of the file"},
		{"property type", func(b []byte) []byte { b[27+13+len("Scalars")] = 'Q'; return b }, "unknown property type"},
		{"too many properties", func(b []byte) []byte { le.PutUint32(b[31:], 1000); return b }, "cannot fit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base = encode(everyType(7400), 0)
			zbase = encode(everyType(7400), 1)
			_, err := Decode(tc.edit(append([]byte(nil), base...)))
			if err == nil {
				t.Fatal("read without error")
			}
			offsetOf(t, err)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// TestZlibBomb: an array that inflates far past its declared length is
// stopped at the declared length.
func TestZlibBomb(t *testing.T) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(make([]byte, 1<<20))
	_ = w.Close()
	arr := binary.LittleEndian.AppendUint32(nil, 2) // 2 doubles declared
	arr = binary.LittleEndian.AppendUint32(arr, 1)
	arr = binary.LittleEndian.AppendUint32(arr, uint32(z.Len()))
	// A file of one node holding the bomb, then the closing null record.
	raw := append([]byte{'d'}, arr...)
	raw = append(raw, z.Bytes()...)
	data := append([]byte(Magic), 0xe8, 0x1c, 0, 0)
	data = append(data, buildRecord("Bomb", 1, raw)...)
	data = append(data, make([]byte, 13)...)
	_, err := Decode(data)
	if err == nil || !strings.Contains(err.Error(), "inflates past") {
		t.Fatalf("bomb: %v", err)
	}
	offsetOf(t, err)
}

// buildRecord writes a 7.4 node record with raw property bytes, to sit
// at offset headerLen.
func buildRecord(name string, nprops int, props []byte) []byte {
	var b []byte
	le := binary.LittleEndian
	end := headerLen + 13 + len(name) + len(props)
	b = le.AppendUint32(b, uint32(end))
	b = le.AppendUint32(b, uint32(nprops))
	b = le.AppendUint32(b, uint32(len(props)))
	b = append(b, byte(len(name)))
	b = append(b, name...)
	return append(b, props...)
}

func TestNodeDepth(t *testing.T) {
	n := nd("Leaf", ps(1))
	for k := 0; k < maxDepth+2; k++ {
		n = nd("N", nil, n)
	}
	_, err := Decode(encode(&Document{Version: 7400, Nodes: []*Node{n}}, 0))
	if err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Fatalf("deep nesting: %v", err)
	}
}
