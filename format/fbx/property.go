package fbx

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/meshrig/meshrig/format"
)

// elemSize is the byte size of an array property's elements.
func elemSize(code byte) int64 {
	switch code {
	case 'f', 'i':
		return 4
	case 'd', 'l':
		return 8
	case 'b':
		return 1
	}
	return 0
}

// property reads the property at pos, which must end by end.
func (d *decoder) property(pos, end int64) (Property, int64, error) {
	if pos >= end {
		return Property{}, 0, errAt(pos, "property list ends before its properties do")
	}
	code := d.data[pos]
	pr := Property{Type: code, Offset: pos}
	p := pos + 1
	le := binary.LittleEndian
	fixed := func(n int64) error {
		if n > end-p {
			return errAt(pos, "property %q of %d bytes runs past the property list's end at byte %d", code, n, end)
		}
		return nil
	}
	switch code {
	case 'Y':
		if err := fixed(2); err != nil {
			return pr, 0, err
		}
		pr.Int = int64(int16(le.Uint16(d.data[p:])))
		return pr, p + 2, nil
	case 'C':
		if err := fixed(1); err != nil {
			return pr, 0, err
		}
		pr.Int = int64(d.data[p] & 1)
		return pr, p + 1, nil
	case 'I':
		if err := fixed(4); err != nil {
			return pr, 0, err
		}
		pr.Int = int64(int32(le.Uint32(d.data[p:])))
		return pr, p + 4, nil
	case 'F':
		if err := fixed(4); err != nil {
			return pr, 0, err
		}
		pr.Float = float64(math.Float32frombits(le.Uint32(d.data[p:])))
		return pr, p + 4, nil
	case 'D':
		if err := fixed(8); err != nil {
			return pr, 0, err
		}
		pr.Float = math.Float64frombits(le.Uint64(d.data[p:]))
		return pr, p + 8, nil
	case 'L':
		if err := fixed(8); err != nil {
			return pr, 0, err
		}
		pr.Int = int64(le.Uint64(d.data[p:]))
		return pr, p + 8, nil
	case 'S', 'R':
		if err := fixed(4); err != nil {
			return pr, 0, err
		}
		n := int64(le.Uint32(d.data[p:]))
		p += 4
		if err := fixed(n); err != nil {
			return pr, 0, err
		}
		pr.Bytes = d.data[p : p+n : p+n]
		return pr, p + n, nil
	case 'f', 'd', 'l', 'i', 'b':
		return d.array(pr, p, end)
	}
	return pr, 0, errAt(pos, "unknown property type %q", code)
}

// array reads an array property's header and data.
func (d *decoder) array(pr Property, p, end int64) (Property, int64, error) {
	pos := pr.Offset
	if 12 > end-p {
		return pr, 0, errAt(pos, "array header runs past the property list's end at byte %d", end)
	}
	le := binary.LittleEndian
	count := int64(le.Uint32(d.data[p:]))
	enc := le.Uint32(d.data[p+4:])
	clen := int64(le.Uint32(d.data[p+8:]))
	p += 12
	if clen > end-p {
		return pr, 0, errAt(pos, "array of %d bytes runs past the property list's end at byte %d", clen, end)
	}
	es := elemSize(pr.Type)
	raw := count * es
	src := d.data[p : p+clen]
	switch enc {
	case 0:
		if raw != clen {
			return pr, 0, errAt(pos, "array of %d elements of %d bytes stored in %d bytes", count, es, clen)
		}
	case 1:
		// The declared length must be one the compressed bytes can make,
		// so a forged header cannot make us allocate beyond the file.
		if raw > maxInflate*clen+64 {
			return pr, 0, errAt(pos, "array of %d elements cannot come from %d compressed bytes", count, clen)
		}
		out, err := inflateArray(src, raw, pos)
		if err != nil {
			return pr, 0, err
		}
		src = out
	default:
		return pr, 0, errAt(pos+5, "array encoding %d: %w (0 raw, 1 zlib)", enc, format.ErrUnsupported)
	}
	switch pr.Type {
	case 'f':
		pr.F32 = make([]float32, count)
		for k := range pr.F32 {
			pr.F32[k] = math.Float32frombits(le.Uint32(src[4*k:]))
		}
	case 'd':
		pr.F64 = make([]float64, count)
		for k := range pr.F64 {
			pr.F64[k] = math.Float64frombits(le.Uint64(src[8*k:]))
		}
	case 'i':
		pr.I32 = make([]int32, count)
		for k := range pr.I32 {
			pr.I32[k] = int32(le.Uint32(src[4*k:]))
		}
	case 'l':
		pr.I64 = make([]int64, count)
		for k := range pr.I64 {
			pr.I64[k] = int64(le.Uint64(src[8*k:]))
		}
	case 'b':
		pr.Bool = make([]bool, count)
		for k := range pr.Bool {
			pr.Bool[k] = src[k]&1 != 0
		}
	}
	return pr, p + clen, nil
}

// inflateArray decompresses a zlib array that must give exactly n bytes.
func inflateArray(src []byte, n, pos int64) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, errAt(pos, "zlib array: %v", err)
	}
	defer zr.Close()
	out := make([]byte, n)
	if _, err := io.ReadFull(zr, out); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, errAt(pos, "zlib array inflates to fewer than its declared %d bytes", n)
		}
		return nil, errAt(pos, "zlib array: %v", err)
	}
	var one [1]byte
	if k, _ := io.ReadFull(zr, one[:]); k > 0 {
		return nil, errAt(pos, "zlib array inflates past its declared %d bytes", n)
	}
	return out, nil
}
