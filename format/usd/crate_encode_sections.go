package usd

import (
	"encoding/binary"
	"io"
)

// finish writes the sections, the table of contents and the bootstrap
// header, then the file to w.
func (c *crate) finish(w io.Writer) error {
	type section struct {
		name       string
		start, end uint64
	}
	var toc []section
	begin := func(name string) { toc = append(toc, section{name: name, start: c.at()}) }
	end := func() { toc[len(toc)-1].end = c.at() }

	begin("TOKENS")
	var raw []byte
	for _, t := range c.tokens {
		raw = append(append(raw, t...), 0)
	}
	comp := fastCompress(raw)
	c.u64(uint64(len(c.tokens)))
	c.u64(uint64(len(raw)))
	c.u64(uint64(len(comp)))
	c.out.Write(comp)
	end()

	// Every token is also a string, at the same index, so a string index
	// and a token index name the same text.
	begin("STRINGS")
	c.u64(uint64(len(c.tokens)))
	for k := range c.tokens {
		c.u32(uint32(k))
	}
	end()

	begin("FIELDS")
	c.u64(uint64(len(c.fields)))
	c.ints(c.ftok)
	var reps []byte
	for _, r := range c.fields {
		reps = binary.LittleEndian.AppendUint64(reps, r)
	}
	comp = fastCompress(reps)
	c.u64(uint64(len(comp)))
	c.out.Write(comp)
	end()

	begin("FIELDSETS")
	c.u64(uint64(len(c.fset)))
	c.ints(c.fset)
	end()

	begin("PATHS")
	idx, elem, jump := c.pathTree()
	c.u64(uint64(c.npaths))
	c.u64(uint64(len(idx)))
	c.ints(idx)
	c.ints(elem)
	c.ints(jump)
	end()

	begin("SPECS")
	c.u64(uint64(len(c.specs)))
	for k := 0; k < 3; k++ {
		col := make([]int32, len(c.specs))
		for i, s := range c.specs {
			col[i] = s[k]
		}
		c.ints(col)
	}
	end()

	tocAt := c.at()
	c.u64(uint64(len(toc)))
	for _, s := range toc {
		var name [16]byte
		copy(name[:], s.name)
		c.out.Write(name[:])
		c.u64(s.start)
		c.u64(s.end - s.start)
	}
	b := c.out.Bytes()
	copy(b, "PXR-USDC")
	b[8], b[9], b[10] = 0, 8, 0
	binary.LittleEndian.PutUint64(b[16:], tocAt)
	_, err := w.Write(b)
	return err
}

// pathTree encodes the path tree depth first: each path's index, its
// element token (negated for a property) and its jump: -2 a leaf, -1 a
// first child follows and no sibling, 0 a sibling follows and no child,
// else the distance to its next sibling, its first child following.
func (c *crate) pathTree() (idx, elem, jump []int32) {
	var walk func(n *pathNode, hasSibling bool)
	walk = func(n *pathNode, hasSibling bool) {
		at := len(idx)
		idx = append(idx, int32(n.index))
		e := int32(c.tokIdx[n.elem])
		if n.index == 0 {
			e = 0
		}
		if n.prop {
			e = -e
		}
		elem = append(elem, e)
		jump = append(jump, 0)
		switch {
		case len(n.children) == 0 && !hasSibling:
			jump[at] = -2
		case len(n.children) == 0:
			jump[at] = 0
		case !hasSibling:
			jump[at] = -1
		}
		for k, ch := range n.children {
			walk(ch, k+1 < len(n.children))
		}
		if len(n.children) > 0 && hasSibling {
			jump[at] = int32(len(idx) - at)
		}
	}
	walk(c.paths, false)
	return idx, elem, jump
}

// ints writes integers with USD's integer coding, LZ4-framed, after
// their compressed size.
func (c *crate) ints(v []int32) {
	comp := fastCompress(encodeInts(v))
	c.u64(uint64(len(comp)))
	c.out.Write(comp)
}

// encodeInts codes v as deltas from the previous value (from 0): the
// most common delta, a 2-bit code per value (0 the common delta, 1/2/3 a
// delta of 8/16/32 bits that follows), then those deltas.
func encodeInts(v []int32) []byte {
	count := map[int32]int{}
	var prev int32
	for _, x := range v {
		count[x-prev]++
		prev = x
	}
	var common int32
	best := -1
	for d, n := range count {
		if n > best || n == best && d < common {
			common, best = d, n
		}
	}
	out := binary.LittleEndian.AppendUint32(nil, uint32(common))
	codes := make([]byte, (2*len(v)+7)/8)
	var tail []byte
	prev = 0
	for i, x := range v {
		d := x - prev
		prev = x
		var code byte
		switch {
		case d == common:
		case d >= -128 && d < 128:
			code, tail = 1, append(tail, byte(int8(d)))
		case d >= -32768 && d < 32768:
			code, tail = 2, binary.LittleEndian.AppendUint16(tail, uint16(int16(d)))
		default:
			code, tail = 3, binary.LittleEndian.AppendUint32(tail, uint32(d))
		}
		codes[i/4] |= code << (2 * (i % 4))
	}
	return append(append(out, codes...), tail...)
}

// fastCompress frames b as TfFastCompression does for one chunk: a zero
// byte, then an LZ4 block — here one sequence of literals only, which
// every LZ4 decoder takes.
func fastCompress(b []byte) []byte {
	out := []byte{0}
	n := len(b)
	if n < 15 {
		out = append(out, byte(n<<4))
	} else {
		out = append(out, 0xf0)
		for r := n - 15; ; r -= 255 {
			if r < 255 {
				out = append(out, byte(r))
				break
			}
			out = append(out, 255)
		}
	}
	return append(out, b...)
}
