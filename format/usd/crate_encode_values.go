package usd

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// timeSamples writes the samples: a relative offset to the times' value
// representation (a double vector), then a relative offset to the
// values' count and representations.
func (c *crate) timeSamples(typ string, s []sample) (uint64, error) {
	reps := make([]uint64, len(s))
	for k := range s {
		r, err := c.value(typ, &s[k].val)
		if err != nil {
			return 0, err
		}
		reps[k] = r
	}
	times := c.at()
	c.u64(uint64(len(s)))
	for _, x := range s {
		c.f64(x.time)
	}
	off := c.at()
	c.u64(8)
	c.u64(rep(cDoubleVec, times, false, false))
	c.u64(8)
	c.u64(uint64(len(reps)))
	for _, r := range reps {
		c.u64(r)
	}
	return rep(cTimeSamples, off, false, false), nil
}

// value writes v as a value of usda type typ.
func (c *crate) value(typ string, v *value) (uint64, error) {
	base, array := strings.CutSuffix(typ, "[]")
	t, ok := crateTypes[base]
	if !ok {
		return 0, fmt.Errorf("type %s is not written to usdc", typ)
	}
	if !array {
		switch t {
		case cToken:
			return rep(cToken, uint64(c.token(v.str)), false, true), nil
		case cString:
			return rep(cString, uint64(c.token(v.str)), false, true), nil
		case cAssetPath:
			return rep(cAssetPath, uint64(c.token(v.str)), false, true), nil
		case cInt:
			return rep(cInt, uint64(uint32(int32(v.num))), false, true), nil
		case cFloat:
			return rep(cFloat, uint64(math.Float32bits(float32(v.num))), false, true), nil
		case cBool:
			b := uint64(0)
			if v.str == "true" || v.num != 0 {
				b = 1
			}
			return rep(cBool, b, false, true), nil
		case cDouble:
			off := c.at()
			c.f64(v.num)
			return rep(cDouble, off, false, false), nil
		}
		if v.kind != vNumbers {
			return 0, fmt.Errorf("a %s value is not numbers", typ)
		}
		off := c.at()
		if err := c.numbers(t, v.nums); err != nil {
			return 0, err
		}
		return rep(t, off, false, false), nil
	}
	off := c.at()
	if t == cToken || t == cString || t == cAssetPath {
		if v.kind == vNumbers && len(v.nums) == 0 {
			c.u64(0)
			return rep(t, off, true, false), nil
		}
		if v.kind != vList {
			return 0, fmt.Errorf("a %s value is not a list of strings", typ)
		}
		c.u64(uint64(len(v.items)))
		for _, e := range v.items {
			c.u32(uint32(c.token(e.str)))
		}
		return rep(t, off, true, false), nil
	}
	if v.kind != vNumbers {
		return 0, fmt.Errorf("a %s value is not numbers", typ)
	}
	w := map[int]int{cInt: 1, cFloat: 1, cDouble: 1, cVec2f: 2, cVec3f: 3, cVec3h: 3, cVec4f: 4, cQuatf: 4, cMatrix4d: 16}[t]
	if w == 0 || len(v.nums)%w != 0 {
		return 0, fmt.Errorf("%d numbers do not make %s elements", len(v.nums), typ)
	}
	c.u64(uint64(len(v.nums) / w))
	for k := 0; k < len(v.nums); k += w {
		if err := c.numbers(t, v.nums[k:k+w]); err != nil {
			return 0, err
		}
	}
	return rep(t, off, true, false), nil
}

// numbers writes one element of type t.
func (c *crate) numbers(t int, v []float64) error {
	switch t {
	case cInt:
		c.u32(uint32(int32(v[0])))
	case cFloat, cVec2f, cVec3f, cVec4f:
		for _, x := range v {
			c.f32(x)
		}
	case cDouble, cMatrix4d:
		for _, x := range v {
			c.f64(x)
		}
	case cQuatf:
		// usda writes (real, i, j, k); GfQuatf holds i, j, k, real.
		c.f32(v[1])
		c.f32(v[2])
		c.f32(v[3])
		c.f32(v[0])
	case cVec3h:
		for _, x := range v {
			c.out.Write(binary.LittleEndian.AppendUint16(nil, half(x)))
		}
	default:
		return fmt.Errorf("crate type %d is not written", t)
	}
	return nil
}

// half rounds x to an IEEE half float (to nearest, ties away; the
// writer's scales are exactly 1).
func half(x float64) uint16 {
	f := math.Float32bits(float32(x))
	sign := uint16(f>>16) & 0x8000
	exp := int(f>>23&0xff) - 127 + 15
	mant := f & 0x7fffff
	switch {
	case x == 0:
		return sign
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		return sign // flushed to zero
	}
	h := sign | uint16(exp)<<10 | uint16(mant>>13)
	if mant&0x1000 != 0 {
		h++
	}
	return h
}

// dict writes a dictionary of strings and numbers (doubles): its size,
// then per entry the key's string index, a relative offset (8: what
// follows) and the value's representation.
func (c *crate) dict(d map[string]value) (uint64, error) {
	keys := sortedKeys(d)
	reps := make([]uint64, len(keys))
	for k, key := range keys {
		r, err := c.metaValue(d[key])
		if err != nil {
			return 0, fmt.Errorf("%s: %w", key, err)
		}
		if d[key].kind == vString {
			r = r&^(0xff<<48) | cString<<48
		}
		reps[k] = r
	}
	off := c.at()
	c.u64(uint64(len(keys)))
	for k, key := range keys {
		c.u32(uint32(c.token(key)))
		c.u64(8)
		c.u64(reps[k])
	}
	return rep(cDictionary, off, false, false), nil
}

// metaValue encodes a layer metadata value: strings as tokens, numbers
// as doubles.
func (c *crate) metaValue(v value) (uint64, error) {
	switch v.kind {
	case vString:
		return rep(cToken, uint64(c.token(v.str)), false, true), nil
	case vNumber:
		off := c.at()
		c.f64(v.num)
		return rep(cDouble, off, false, false), nil
	}
	return 0, fmt.Errorf("not a string or number")
}
