package gltf

import (
	"encoding/binary"
	"fmt"
	"math"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/format"
)

// maxValues bounds the numbers one accessor may hold (128 MiB of float64).
const maxValues = 1 << 24

// accessor reads accessor idx as float64 values, ncomp per element, with
// byte strides, normalized integers and sparse substitution applied. Every
// offset is checked against the buffers, so a malformed file gives an
// error instead of a panic.
func accessor(doc *gltflib.Document, idx int) (vals []float64, ncomp int, err error) {
	if idx < 0 || idx >= len(doc.Accessors) || doc.Accessors[idx] == nil {
		return nil, 0, fmt.Errorf("accessor %d does not exist", idx)
	}
	a := doc.Accessors[idx]
	ncomp = componentsOf(a.Type)
	size := componentSize(a.ComponentType)
	if ncomp == 0 || size == 0 {
		return nil, 0, fmt.Errorf("accessor %d: unsupported type %v / component type %v", idx, a.Type, a.ComponentType)
	}
	// Accessors backed by data are bounded by their buffer view below; one
	// without (all zeros, or sparse) is bounded here.
	if a.Count < 0 || a.Count > maxValues/ncomp {
		return nil, 0, fmt.Errorf("accessor %d: count %d out of range", idx, a.Count)
	}
	vals = make([]float64, a.Count*ncomp)
	if a.BufferView != nil {
		data, stride, err := view(doc, *a.BufferView)
		if err != nil {
			return nil, 0, fmt.Errorf("accessor %d: %w", idx, err)
		}
		elem := elementSize(a.Type, ncomp, size)
		if stride == 0 {
			stride = elem
		}
		if a.Count > 0 && !fits(a.ByteOffset, (a.Count-1)*stride+elem, len(data)) {
			return nil, 0, fmt.Errorf("accessor %d: %d elements at offset %d overrun its buffer view of %d bytes", idx, a.Count, a.ByteOffset, len(data))
		}
		for e := 0; e < a.Count; e++ {
			decodeElement(vals[e*ncomp:(e+1)*ncomp], data[a.ByteOffset+e*stride:], a, ncomp, size)
		}
	}
	if s := a.Sparse; s != nil {
		if err := applySparse(doc, a, s, vals, ncomp, size); err != nil {
			return nil, 0, fmt.Errorf("accessor %d: sparse: %w", idx, err)
		}
	}
	for k, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("accessor %d: element %d holds a non-finite value", idx, k/ncomp)
		}
	}
	return vals, ncomp, nil
}

// view returns the bytes of buffer view idx and its stride.
func view(doc *gltflib.Document, idx int) ([]byte, int, error) {
	if idx < 0 || idx >= len(doc.BufferViews) || doc.BufferViews[idx] == nil {
		return nil, 0, fmt.Errorf("buffer view %d does not exist", idx)
	}
	bv := doc.BufferViews[idx]
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) || doc.Buffers[bv.Buffer] == nil {
		return nil, 0, fmt.Errorf("buffer view %d: buffer %d does not exist", idx, bv.Buffer)
	}
	data := doc.Buffers[bv.Buffer].Data
	if !fits(bv.ByteOffset, bv.ByteLength, len(data)) {
		return nil, 0, fmt.Errorf("buffer view %d (%d bytes at %d) overruns buffer %d of %d bytes: %w",
			idx, bv.ByteLength, bv.ByteOffset, bv.Buffer, len(data), format.ErrTruncated)
	}
	if bv.ByteStride < 0 || bv.ByteStride > 252 {
		return nil, 0, fmt.Errorf("buffer view %d: byte stride %d out of range", idx, bv.ByteStride)
	}
	return data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], bv.ByteStride, nil
}

func applySparse(doc *gltflib.Document, a *gltflib.Accessor, s *gltflib.Sparse, vals []float64, ncomp, size int) error {
	if s.Count < 0 || s.Count > a.Count {
		return fmt.Errorf("count %d out of range", s.Count)
	}
	idata, _, err := view(doc, s.Indices.BufferView)
	if err != nil {
		return err
	}
	isz := componentSize(s.Indices.ComponentType)
	if isz == 0 || s.Indices.ComponentType == gltflib.ComponentFloat {
		return fmt.Errorf("indices of component type %v: want an unsigned integer type", s.Indices.ComponentType)
	}
	if !fits(s.Indices.ByteOffset, s.Count*isz, len(idata)) {
		return fmt.Errorf("%d indices at offset %d overrun their buffer view of %d bytes", s.Count, s.Indices.ByteOffset, len(idata))
	}
	vdata, _, err := view(doc, s.Values.BufferView)
	if err != nil {
		return err
	}
	elem := elementSize(a.Type, ncomp, size)
	if !fits(s.Values.ByteOffset, s.Count*elem, len(vdata)) {
		return fmt.Errorf("%d values at offset %d overrun their buffer view of %d bytes", s.Count, s.Values.ByteOffset, len(vdata))
	}
	one := make([]float64, 1)
	for k := 0; k < s.Count; k++ {
		decodeElement(one, idata[s.Indices.ByteOffset+k*isz:], &gltflib.Accessor{ComponentType: s.Indices.ComponentType}, 1, isz)
		i := int(one[0])
		if i < 0 || i >= a.Count {
			return fmt.Errorf("index %d out of range", i)
		}
		decodeElement(vals[i*ncomp:(i+1)*ncomp], vdata[s.Values.ByteOffset+k*elem:], a, ncomp, size)
	}
	return nil
}

// fits reports whether n bytes at offset off lie within size bytes,
// without overflowing on the huge values a malformed file may hold.
func fits(off, n, size int) bool {
	return off >= 0 && n >= 0 && off <= size && n <= size-off
}

// decodeElement reads one element of ncomp components.
func decodeElement(out []float64, b []byte, a *gltflib.Accessor, ncomp, size int) {
	le := binary.LittleEndian
	for c := 0; c < ncomp; c++ {
		o := c * size
		if rows := matrixRows(a.Type); rows > 0 && size < 4 {
			// Columns of byte and short matrices are padded to 4 bytes.
			col := (rows*size + 3) / 4 * 4
			o = (c/rows)*col + (c%rows)*size
		}
		var v float64
		switch a.ComponentType {
		case gltflib.ComponentFloat:
			v = float64(math.Float32frombits(le.Uint32(b[o:])))
		case gltflib.ComponentByte:
			v = float64(int8(b[o]))
			if a.Normalized {
				v = math.Max(v/127, -1)
			}
		case gltflib.ComponentUbyte:
			v = float64(b[o])
			if a.Normalized {
				v /= 255
			}
		case gltflib.ComponentShort:
			v = float64(int16(le.Uint16(b[o:])))
			if a.Normalized {
				v = math.Max(v/32767, -1)
			}
		case gltflib.ComponentUshort:
			v = float64(le.Uint16(b[o:]))
			if a.Normalized {
				v /= 65535
			}
		case gltflib.ComponentUint:
			v = float64(le.Uint32(b[o:]))
		}
		out[c] = v
	}
}

func componentsOf(t gltflib.AccessorType) int {
	switch t {
	case gltflib.AccessorScalar:
		return 1
	case gltflib.AccessorVec2:
		return 2
	case gltflib.AccessorVec3:
		return 3
	case gltflib.AccessorVec4, gltflib.AccessorMat2:
		return 4
	case gltflib.AccessorMat3:
		return 9
	case gltflib.AccessorMat4:
		return 16
	}
	return 0
}

func componentSize(c gltflib.ComponentType) int {
	switch c {
	case gltflib.ComponentByte, gltflib.ComponentUbyte:
		return 1
	case gltflib.ComponentShort, gltflib.ComponentUshort:
		return 2
	case gltflib.ComponentUint, gltflib.ComponentFloat:
		return 4
	}
	return 0
}

// elementSize is the bytes one element spans, with glTF's column padding
// of byte and short matrices.
func elementSize(t gltflib.AccessorType, ncomp, size int) int {
	if rows := matrixRows(t); rows > 0 && size < 4 {
		return rows * ((rows*size + 3) / 4 * 4)
	}
	return ncomp * size
}

func matrixRows(t gltflib.AccessorType) int {
	switch t {
	case gltflib.AccessorMat2:
		return 2
	case gltflib.AccessorMat3:
		return 3
	case gltflib.AccessorMat4:
		return 4
	}
	return 0
}
