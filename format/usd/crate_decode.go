package usd

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// crateErr is an error at a byte offset of a crate file.
type crateErr struct {
	off int64
	msg string
}

func (e *crateErr) Error() string { return e.msg }

func badf(off int64, format string, args ...any) error {
	return &crateErr{off, fmt.Sprintf(format, args...)}
}

// dec reads a crate file: every read is checked against its size.
type dec struct {
	b      []byte
	tokens []string
	strs   []int32
	paths  []string
}

func (d *dec) u64(off int64) (uint64, error) {
	if off < 0 || off+8 > int64(len(d.b)) {
		return 0, badf(off, "8 bytes past the end of the file (%d bytes)", len(d.b))
	}
	return binary.LittleEndian.Uint64(d.b[off:]), nil
}

func (d *dec) span(off int64, n uint64) ([]byte, error) {
	if off < 0 || n > uint64(len(d.b)) || off+int64(n) > int64(len(d.b)) {
		return nil, badf(off, "%d bytes past the end of the file (%d bytes)", n, len(d.b))
	}
	return d.b[off : off+int64(n)], nil
}

// elems returns n elements of size bytes at off, refusing a count the
// file cannot hold before multiplying it.
func (d *dec) elems(off int64, n, size uint64) ([]byte, error) {
	if n > uint64(len(d.b))/size {
		return nil, badf(off, "%d elements of %d bytes in a file of %d bytes", n, size, len(d.b))
	}
	return d.span(off, n*size)
}

// lz4 undoes TfFastCompression's framing and the LZ4 block inside
// (one chunk), into at most max bytes.
func lz4(off int64, in []byte, max int) ([]byte, error) {
	if len(in) == 0 || in[0] != 0 {
		return nil, badf(off, "compressed data in several chunks (meshrig reads one)")
	}
	out := make([]byte, 0, min(max, 255*len(in)+16))
	i := 1
	for i < len(in) {
		tok := in[i]
		i++
		n := int(tok >> 4)
		if n == 15 {
			for {
				if i >= len(in) {
					return nil, badf(off, "LZ4 literal length runs past its block")
				}
				n += int(in[i])
				i++
				if in[i-1] != 255 {
					break
				}
			}
		}
		if n > len(in)-i || len(out)+n > max {
			return nil, badf(off, "LZ4 literals run past the block or the declared size")
		}
		out = append(out, in[i:i+n]...)
		i += n
		if i == len(in) {
			break
		}
		if i+2 > len(in) {
			return nil, badf(off, "LZ4 match offset cut off")
		}
		back := int(in[i]) | int(in[i+1])<<8
		i += 2
		m := int(tok&15) + 4
		if tok&15 == 15 {
			for {
				if i >= len(in) {
					return nil, badf(off, "LZ4 match length runs past its block")
				}
				m += int(in[i])
				i++
				if in[i-1] != 255 {
					break
				}
			}
		}
		if back == 0 || back > len(out) || len(out)+m > max {
			return nil, badf(off, "LZ4 match outside the output")
		}
		for k := 0; k < m; k++ {
			out = append(out, out[len(out)-back])
		}
	}
	return out, nil
}

// ints reads a compressed integer array of n values at off: its
// compressed size, then the LZ4-framed coding; it returns the offset
// after it.
func (d *dec) ints(off int64, n uint64) ([]int32, int64, error) {
	size, err := d.u64(off)
	if err != nil {
		return nil, 0, err
	}
	in, err := d.span(off+8, size)
	if err != nil {
		return nil, 0, err
	}
	if n > uint64(len(d.b)) {
		return nil, 0, badf(off, "%d integers in a file of %d bytes", n, len(d.b))
	}
	raw, err := lz4(off+8, in, 4+int(2*n+7)/8+4*int(n))
	if err != nil {
		return nil, 0, err
	}
	codes := int(2*n+7) / 8
	if len(raw) < 4+codes {
		return nil, 0, badf(off, "integer coding shorter than its codes")
	}
	common := int32(binary.LittleEndian.Uint32(raw))
	tail := raw[4+codes:]
	out := make([]int32, n)
	var prev int32
	for i := range out {
		v := common
		need := [4]int{0, 1, 2, 4}[raw[4+i/4]>>(2*(i%4))&3]
		if len(tail) < need {
			return nil, 0, badf(off, "integer %d of %d cut off", i+1, n)
		}
		switch need {
		case 1:
			v = int32(int8(tail[0]))
		case 2:
			v = int32(int16(binary.LittleEndian.Uint16(tail)))
		case 4:
			v = int32(binary.LittleEndian.Uint32(tail))
		}
		tail = tail[need:]
		prev += v
		out[i] = prev
	}
	return out, off + 8 + int64(size), nil
}

// decodeCrate reads a crate file into the layer tree the usda parser
// makes, for the subset encodeCrate writes.
func decodeCrate(b []byte) (*layer, error) {
	d := &dec{b: b}
	if len(b) < 88 || string(b[:8]) != "PXR-USDC" {
		return nil, badf(0, "not a usdc file (no PXR-USDC header)")
	}
	if b[8] != 0 || b[9] < 4 {
		return nil, badf(8, "usdc version %d.%d.%d: meshrig reads 0.4.0 and later", b[8], b[9], b[10])
	}
	toc := int64(binary.LittleEndian.Uint64(b[16:]))
	n, err := d.u64(toc)
	if err != nil {
		return nil, err
	}
	if n > uint64(len(b))/32 {
		return nil, badf(toc, "%d sections in a file of %d bytes", n, len(b))
	}
	sec := map[string]int64{}
	for k := int64(0); k < int64(n); k++ {
		e, err := d.span(toc+8+32*k, 32)
		if err != nil {
			return nil, err
		}
		sec[strings.TrimRight(string(e[:16]), "\x00")] = int64(binary.LittleEndian.Uint64(e[16:]))
	}
	for _, s := range []string{"TOKENS", "STRINGS", "FIELDS", "FIELDSETS", "PATHS", "SPECS"} {
		if _, ok := sec[s]; !ok {
			return nil, badf(toc, "no %s section", s)
		}
	}
	if err := d.readTokens(sec["TOKENS"]); err != nil {
		return nil, err
	}
	if err := d.readStrings(sec["STRINGS"]); err != nil {
		return nil, err
	}
	ftok, reps, err := d.readFields(sec["FIELDS"])
	if err != nil {
		return nil, err
	}
	fsOff := sec["FIELDSETS"]
	nfs, err := d.u64(fsOff)
	if err != nil {
		return nil, err
	}
	fsets, _, err := d.ints(fsOff+8, nfs)
	if err != nil {
		return nil, err
	}
	if err := d.readPaths(sec["PATHS"]); err != nil {
		return nil, err
	}
	spOff := sec["SPECS"]
	ns, err := d.u64(spOff)
	if err != nil {
		return nil, err
	}
	var cols [3][]int32
	at := spOff + 8
	for k := range cols {
		if cols[k], at, err = d.ints(at, ns); err != nil {
			return nil, err
		}
	}
	tb := &treeBuilder{d: d, prims: map[string]*prim{}}
	for i := range cols[0] {
		pi, fi, typ := cols[0][i], cols[1][i], cols[2][i]
		if pi < 0 || int(pi) >= len(d.paths) || fi < 0 || int(fi) > len(fsets) {
			return nil, badf(spOff, "spec %d: path %d or field set %d out of range", i+1, pi, fi)
		}
		fields := map[string]uint64{}
		for k := int(fi); k < len(fsets) && fsets[k] >= 0; k++ {
			f := fsets[k]
			if int(f) >= len(ftok) || ftok[f] < 0 || int(ftok[f]) >= len(d.tokens) {
				return nil, badf(fsOff, "field set %d: field %d out of range", fi, f)
			}
			fields[d.tokens[ftok[f]]] = reps[f]
		}
		if err := tb.spec(d.paths[pi], typ, fields); err != nil {
			return nil, err
		}
	}
	return tb.layer()
}

func (d *dec) readTokens(off int64) error {
	n, err := d.u64(off)
	if err != nil {
		return err
	}
	raw, err := d.u64(off + 8)
	if err != nil {
		return err
	}
	size, err := d.u64(off + 16)
	if err != nil {
		return err
	}
	in, err := d.span(off+24, size)
	if err != nil {
		return err
	}
	if raw > 255*size+16 || n > raw {
		return badf(off, "%d tokens in %d bytes from %d compressed", n, raw, size)
	}
	text, err := lz4(off+24, in, int(raw))
	if err != nil {
		return err
	}
	d.tokens = strings.Split(strings.TrimSuffix(string(text), "\x00"), "\x00")
	if uint64(len(d.tokens)) != n {
		return badf(off, "%d tokens, %d declared", len(d.tokens), n)
	}
	return nil
}

func (d *dec) readStrings(off int64) error {
	n, err := d.u64(off)
	if err != nil {
		return err
	}
	raw, err := d.elems(off+8, n, 4)
	if err != nil {
		return err
	}
	d.strs = make([]int32, n)
	for i := range d.strs {
		d.strs[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
		if d.strs[i] < 0 || int(d.strs[i]) >= len(d.tokens) {
			return badf(off+8+4*int64(i), "string %d: token %d out of range", i, d.strs[i])
		}
	}
	return nil
}

func (d *dec) readFields(off int64) ([]int32, []uint64, error) {
	n, err := d.u64(off)
	if err != nil {
		return nil, nil, err
	}
	tok, at, err := d.ints(off+8, n)
	if err != nil {
		return nil, nil, err
	}
	size, err := d.u64(at)
	if err != nil {
		return nil, nil, err
	}
	in, err := d.span(at+8, size)
	if err != nil {
		return nil, nil, err
	}
	raw, err := lz4(at+8, in, 8*int(n))
	if err != nil {
		return nil, nil, err
	}
	if len(raw) != 8*int(n) {
		return nil, nil, badf(at, "%d value representations for %d fields", len(raw)/8, n)
	}
	reps := make([]uint64, n)
	for i := range reps {
		reps[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	return tok, reps, nil
}

// readPaths rebuilds the path strings from the tree's depth-first coding.
func (d *dec) readPaths(off int64) error {
	n, err := d.u64(off)
	if err != nil {
		return err
	}
	m, err := d.u64(off + 8)
	if err != nil {
		return err
	}
	if n > uint64(len(d.b)) || m > n {
		return badf(off, "%d paths, %d coded", n, m)
	}
	var col [3][]int32
	at := off + 16
	for k := range col {
		if col[k], at, err = d.ints(at, m); err != nil {
			return err
		}
	}
	d.paths = make([]string, n)
	type frame struct {
		parent string
		at     int
	}
	stack := []frame{{"", 0}}
	visits := 0
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parent := f.parent
		for i := f.at; i < int(m); i++ {
			// A valid tree visits each coded path once.
			if visits++; visits > int(m) {
				return badf(off, "the path tree's jumps revisit paths")
			}
			pi, e, j := col[0][i], col[1][i], col[2][i]
			if pi < 0 || int64(pi) >= int64(n) {
				return badf(off, "path %d: index %d out of range", i, pi)
			}
			path := "/"
			if parent != "" {
				t := e
				if t < 0 {
					t = -t
				}
				if int(t) >= len(d.tokens) {
					return badf(off, "path %d: token %d out of range", i, t)
				}
				switch {
				case e < 0:
					path = parent + "." + d.tokens[t]
				case parent == "/":
					path = "/" + d.tokens[t]
				default:
					path = parent + "/" + d.tokens[t]
				}
			}
			d.paths[pi] = path
			if j > 0 {
				if i+int(j) >= int(m) || len(stack) > int(m) {
					return badf(off, "path %d: sibling %d past the coded paths", i, j)
				}
				stack = append(stack, frame{parent, i + int(j)})
			}
			switch {
			case j > 0 || j == -1:
				parent = path
			case j == 0:
			default:
				i = int(m)
			}
		}
	}
	return nil
}
