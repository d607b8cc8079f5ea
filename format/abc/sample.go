package abc

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Every sample's data block starts with a 16-byte key (a hash of the
// bytes) that readers skip; an array sample has a second block with its
// dimensions as uint64s (none: one dimension, from the byte count).
const keySize = 16

// raw reads sample i of a scalar or array property into a.scratch and
// returns its bytes (key dropped; valid until the next read) and its
// number of PODs. Strings are not read through raw.
func (a *Archive) raw(p *Property, i int) ([]byte, int, error) {
	if p.Kind == Compound {
		return nil, 0, p.errf("a compound property has no samples")
	}
	if i < 0 || i >= p.Samples {
		return nil, 0, p.errf("sample %d out of range (it has %d)", i, p.Samples)
	}
	s := p.stored(i)
	k := s
	if p.Kind == Array {
		k = 2 * s
	}
	what := fmt.Sprintf("%s sample %d", p.path, i)
	b, err := a.c.kidData(p.g, k, what)
	if err != nil {
		return nil, 0, err
	}
	if b.n == 0 {
		return nil, 0, nil
	}
	if b.n < keySize {
		return nil, 0, errAt(b.pos, "%s: %d bytes, fewer than its 16-byte key", what, b.n)
	}
	size := p.POD.Size()
	if size == 0 {
		return nil, 0, errAt(b.pos, "%s: %s values are not read", what, p.POD)
	}
	body := b.n - keySize
	per := int64(size * p.Extent)
	if body%per != 0 {
		return nil, 0, errAt(b.pos, "%s: %d bytes is not a whole number of %d-byte values", what, body, per)
	}
	items := body / per
	if p.Kind == Scalar && items != 1 {
		return nil, 0, errAt(b.pos, "%s: %d bytes, a scalar of %d×%s has %d", what, body, p.Extent, p.POD, per)
	}
	if p.Kind == Array {
		d, err := a.c.kidData(p.g, k+1, what+" dimensions")
		if err != nil {
			return nil, 0, err
		}
		if d.n > 0 {
			if d.n%8 != 0 || d.n > 8*8 {
				return nil, 0, errAt(d.pos, "%s: dimensions of %d bytes", what, d.n)
			}
			dims, err := a.c.bytes(d)
			if err != nil {
				return nil, 0, err
			}
			pts := uint64(1)
			for j := 0; j < len(dims); j += 8 {
				v := binary.LittleEndian.Uint64(dims[j:])
				if v != 0 && pts > math.MaxInt64/v {
					return nil, 0, errAt(d.pos, "%s: dimensions overflow", what)
				}
				pts *= v
			}
			if pts != uint64(items) {
				return nil, 0, errAt(d.pos, "%s: dimensions say %d values, the data holds %d", what, pts, items)
			}
		}
	}
	if int64(cap(a.scratch)) < body {
		a.scratch = make([]byte, body)
	}
	buf := a.scratch[:body]
	if err := a.c.readAt(buf, b.pos+keySize); err != nil {
		return nil, 0, err
	}
	return buf, int(items) * p.Extent, nil
}

// Float32s reads sample i of a float property (float32, float64 or
// float16 values) into dst, resized, as float32s: Extent per value.
func (a *Archive) Float32s(p *Property, i int, dst []float32) ([]float32, error) {
	buf, n, err := a.raw(p, i)
	if err != nil {
		return dst, err
	}
	dst = resize(dst, n)
	switch p.POD {
	case Float32:
		for j := range dst {
			dst[j] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:]))
		}
	case Float64:
		for j := range dst {
			dst[j] = float32(math.Float64frombits(binary.LittleEndian.Uint64(buf[8*j:])))
		}
	case Float16:
		for j := range dst {
			dst[j] = half(binary.LittleEndian.Uint16(buf[2*j:]))
		}
	default:
		return dst, p.errf("%s values, want floats", p.POD)
	}
	return dst, nil
}

// Float64s reads sample i of a float property into dst, resized.
func (a *Archive) Float64s(p *Property, i int, dst []float64) ([]float64, error) {
	if p.POD != Float64 {
		f, err := a.Float32s(p, i, nil)
		dst = resize(dst, len(f))
		for j, v := range f {
			dst[j] = float64(v)
		}
		return dst, err
	}
	buf, n, err := a.raw(p, i)
	if err != nil {
		return dst, err
	}
	dst = resize(dst, n)
	for j := range dst {
		dst[j] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*j:]))
	}
	return dst, nil
}

// Int32s reads sample i of an integer property (8, 16 or 32 bits, signed
// or not; 64-bit values within int32's range) into dst, resized.
func (a *Archive) Int32s(p *Property, i int, dst []int32) ([]int32, error) {
	buf, n, err := a.raw(p, i)
	if err != nil {
		return dst, err
	}
	dst = resize(dst, n)
	for j := range dst {
		var v int64
		switch p.POD {
		case Bool, Uint8:
			v = int64(buf[j])
		case Int8:
			v = int64(int8(buf[j]))
		case Uint16:
			v = int64(binary.LittleEndian.Uint16(buf[2*j:]))
		case Int16:
			v = int64(int16(binary.LittleEndian.Uint16(buf[2*j:])))
		case Uint32:
			v = int64(binary.LittleEndian.Uint32(buf[4*j:]))
		case Int32:
			v = int64(int32(binary.LittleEndian.Uint32(buf[4*j:])))
		case Uint64, Int64:
			v = int64(binary.LittleEndian.Uint64(buf[8*j:]))
		default:
			return dst, p.errf("%s values, want integers", p.POD)
		}
		if v != int64(int32(v)) {
			return dst, p.errf("sample %d: value %d does not fit in 32 bits", i, v)
		}
		dst[j] = int32(v)
	}
	return dst, nil
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// half converts an IEEE 754 binary16 value.
func half(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0:
		f := float32(frac) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
