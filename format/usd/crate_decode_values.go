package usd

import (
	"encoding/binary"
	"math"
)

// elemWidth is the number of numbers in one element of a crate type.
var elemWidth = map[int]int{cInt: 1, cFloat: 1, cDouble: 1, cVec2f: 2, cVec3f: 3, cVec3h: 3, cVec4f: 4, cQuatf: 4, cMatrix4d: 16}

// elemSize is the bytes of one element.
var elemSize = map[int]int{cInt: 4, cFloat: 4, cDouble: 8, cVec2f: 8, cVec3f: 12, cVec3h: 6, cVec4f: 16, cQuatf: 16, cMatrix4d: 128}

// value decodes a value representation into the parser's value.
func (d *dec) value(r uint64) (value, error) {
	typ := int(r >> 48 & 0xff)
	array, inlined := r>>63 == 1, r>>62&1 == 1
	payload := r & (1<<48 - 1)
	if r>>61&1 == 1 {
		return value{}, badf(int64(payload), "compressed arrays are not read (meshrig writes none)")
	}
	if inlined {
		switch typ {
		case cToken, cAssetPath:
			if payload >= uint64(len(d.tokens)) {
				return value{}, badf(0, "token %d out of range", payload)
			}
			k := vString
			if typ == cAssetPath {
				k = vAsset
			}
			return value{kind: k, str: d.tokens[payload]}, nil
		case cString:
			if payload >= uint64(len(d.strs)) {
				return value{}, badf(0, "string %d out of range", payload)
			}
			return value{kind: vString, str: d.tokens[d.strs[payload]]}, nil
		case cInt:
			return value{kind: vNumber, num: float64(int32(uint32(payload)))}, nil
		case cFloat:
			return value{kind: vNumber, num: float64(math.Float32frombits(uint32(payload)))}, nil
		case cBool, cSpecifier, cVariability:
			return value{kind: vNumber, num: float64(payload)}, nil
		}
		return value{}, badf(0, "inlined value of type %d is not read", typ)
	}
	off := int64(payload)
	switch typ {
	case cTokenListOp, cPathListOp:
		return d.listOp(off, typ)
	case cDictionary:
		return d.dict(off)
	case cTokenVector:
		v, err := d.tokenVector(off)
		if err != nil {
			return value{}, err
		}
		return strValues(v), nil
	}
	w, ok := elemWidth[typ]
	if !ok && !(array && typ == cToken) {
		return value{}, badf(off, "value of type %d is not read", typ)
	}
	if !array {
		raw, err := d.span(off, uint64(elemSize[typ]))
		if err != nil {
			return value{}, err
		}
		nums := decodeElem(typ, raw, nil)
		if w == 1 {
			return value{kind: vNumber, num: nums[0]}, nil
		}
		width := 1
		if typ == cMatrix4d {
			width = 4
		}
		return value{kind: vNumbers, nums: nums, width: width}, nil
	}
	n, err := d.u64(off)
	if err != nil {
		return value{}, err
	}
	if typ == cToken {
		raw, err := d.elems(off+8, n, 4)
		if err != nil {
			return value{}, err
		}
		out := make([]string, n)
		for i := range out {
			t := binary.LittleEndian.Uint32(raw[4*i:])
			if int(t) >= len(d.tokens) {
				return value{}, badf(off+8+4*int64(i), "token %d out of range", t)
			}
			out[i] = d.tokens[t]
		}
		return strValues(out), nil
	}
	size := uint64(elemSize[typ])
	if n > uint64(len(d.b))/size {
		return value{}, badf(off, "%d elements in a file of %d bytes", n, len(d.b))
	}
	raw, err := d.elems(off+8, n, size)
	if err != nil {
		return value{}, err
	}
	nums := make([]float64, 0, int(n)*w)
	for i := uint64(0); i < n; i++ {
		nums = decodeElem(typ, raw[i*size:], nums)
	}
	return value{kind: vNumbers, nums: nums, width: w}, nil
}

// strValues is a list of strings as the parser holds one (an empty
// list as an empty numeric array).
func strValues(v []string) value {
	if len(v) == 0 {
		return value{kind: vNumbers, nums: []float64{}, width: 1}
	}
	out := value{kind: vList, items: make([]value, len(v))}
	for i, s := range v {
		out.items[i] = value{kind: vString, str: s}
	}
	return out
}

// decodeElem appends one element's numbers, a quaternion real part first
// as usda writes it.
func decodeElem(typ int, b []byte, out []float64) []float64 {
	le := binary.LittleEndian
	f32 := func(k int) float64 { return float64(math.Float32frombits(le.Uint32(b[4*k:]))) }
	switch typ {
	case cInt:
		return append(out, float64(int32(le.Uint32(b))))
	case cFloat, cVec2f, cVec3f, cVec4f:
		for k := 0; k < elemWidth[typ]; k++ {
			out = append(out, f32(k))
		}
	case cQuatf:
		out = append(out, f32(3), f32(0), f32(1), f32(2))
	case cDouble, cMatrix4d:
		for k := 0; k < elemWidth[typ]; k++ {
			out = append(out, math.Float64frombits(le.Uint64(b[8*k:])))
		}
	case cVec3h:
		for k := 0; k < 3; k++ {
			out = append(out, halfTo(le.Uint16(b[2*k:])))
		}
	}
	return out
}

// halfTo widens an IEEE half float.
func halfTo(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, mant := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * mant * math.Pow(2, -24)
	case 31:
		if mant == 0 {
			return sign * math.Inf(1)
		}
		return math.NaN()
	}
	return sign * (1 + mant/1024) * math.Pow(2, float64(exp-15))
}

func (d *dec) tokenVector(off int64) ([]string, error) {
	n, err := d.u64(off)
	if err != nil {
		return nil, err
	}
	raw, err := d.elems(off+8, n, 4)
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		t := binary.LittleEndian.Uint32(raw[4*i:])
		if int(t) >= len(d.tokens) {
			return nil, badf(off+8+4*int64(i), "token %d out of range", t)
		}
		out[i] = d.tokens[t]
	}
	return out, nil
}

// tokenList reads a TokenVector field.
func (d *dec) tokenList(r uint64) ([]string, error) {
	if int(r>>48&0xff) != cTokenVector || r>>62&1 == 1 {
		return nil, badf(0, "expected a token vector, found type %d", r>>48&0xff)
	}
	return d.tokenVector(int64(r & (1<<48 - 1)))
}

// listOp reads a token or path list op's items (explicit, added,
// prepended or appended, in that order) as strings; a path list op of
// one path is that path.
func (d *dec) listOp(off int64, typ int) (value, error) {
	flags, err := d.span(off, 1)
	if err != nil {
		return value{}, err
	}
	at := off + 1
	var items []string
	for _, bit := range []byte{0x02, 0x04, 0x20, 0x40, 0x08, 0x10} {
		if flags[0]&bit == 0 {
			continue
		}
		n, err := d.u64(at)
		if err != nil {
			return value{}, err
		}
		raw, err := d.elems(at+8, n, 4)
		if err != nil {
			return value{}, err
		}
		for i := uint64(0); i < n; i++ {
			k := binary.LittleEndian.Uint32(raw[4*i:])
			if bit == 0x08 || bit == 0x10 {
				continue // deleted and reordered items
			}
			if typ == cPathListOp {
				if int(k) >= len(d.paths) {
					return value{}, badf(at+8+4*int64(i), "path %d out of range", k)
				}
				items = append(items, d.paths[k])
			} else {
				if int(k) >= len(d.tokens) {
					return value{}, badf(at+8+4*int64(i), "token %d out of range", k)
				}
				items = append(items, d.tokens[k])
			}
		}
		at += 8 + 4*int64(n)
	}
	if typ == cPathListOp {
		if len(items) != 1 {
			return value{}, badf(off, "%d target paths (meshrig writes one)", len(items))
		}
		return value{kind: vPath, str: items[0]}, nil
	}
	return strValues(items), nil
}

// dict reads a dictionary of strings and numbers.
func (d *dec) dict(off int64) (value, error) {
	n, err := d.u64(off)
	if err != nil {
		return value{}, err
	}
	if n > uint64(len(d.b))/20 {
		return value{}, badf(off, "%d dictionary entries in a file of %d bytes", n, len(d.b))
	}
	out := value{kind: vDict, dict: map[string]value{}}
	at := off + 8
	for i := uint64(0); i < n; i++ {
		k, err := d.span(at, 4)
		if err != nil {
			return value{}, err
		}
		ki := binary.LittleEndian.Uint32(k)
		if int(ki) >= len(d.strs) {
			return value{}, badf(at, "key %d out of range", ki)
		}
		rel, err := d.u64(at + 4)
		if err != nil {
			return value{}, err
		}
		r, err := d.u64(at + 4 + int64(rel))
		if err != nil {
			return value{}, err
		}
		if int(r>>48&0xff) == cDictionary {
			return value{}, badf(at, "nested dictionaries are not read")
		}
		v, err := d.value(r)
		if err != nil {
			return value{}, err
		}
		out.dict[d.tokens[d.strs[ki]]] = v
		at += 4 + 8 + 8
	}
	return out, nil
}

// samples reads time samples: a relative offset to the times'
// representation, then a relative offset to the values' count and
// representations.
func (d *dec) samples(r uint64) ([]sample, error) {
	if int(r>>48&0xff) != cTimeSamples {
		return nil, badf(0, "expected time samples, found type %d", r>>48&0xff)
	}
	off := int64(r & (1<<48 - 1))
	rel, err := d.u64(off)
	if err != nil {
		return nil, err
	}
	at := off + int64(rel)
	tr, err := d.u64(at)
	if err != nil {
		return nil, err
	}
	if int(tr>>48&0xff) != cDoubleVec {
		return nil, badf(at, "sample times are type %d, not doubles", tr>>48&0xff)
	}
	toff := int64(tr & (1<<48 - 1))
	nt, err := d.u64(toff)
	if err != nil {
		return nil, err
	}
	traw, err := d.elems(toff+8, nt, 8)
	if err != nil {
		return nil, err
	}
	rel2, err := d.u64(at + 8)
	if err != nil {
		return nil, err
	}
	vat := at + 8 + int64(rel2)
	nv, err := d.u64(vat)
	if err != nil {
		return nil, err
	}
	if nv != nt {
		return nil, badf(vat, "%d values for %d sample times", nv, nt)
	}
	vraw, err := d.elems(vat+8, nv, 8)
	if err != nil {
		return nil, err
	}
	out := make([]sample, nt)
	for i := range out {
		out[i].time = math.Float64frombits(binary.LittleEndian.Uint64(traw[8*i:]))
		v, err := d.value(binary.LittleEndian.Uint64(vraw[8*i:]))
		if err != nil {
			return nil, err
		}
		out[i].val = v
	}
	return out, nil
}
