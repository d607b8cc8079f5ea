package obj

import (
	"bytes"
	"errors"
	"math"
	"strconv"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// errNotPlain is ReadFrame's one error: the file is not a plain frame of
// the rest mesh, or holds what ReadFrame leaves to Read.
var errNotPlain = errors.New("obj: not a plain frame of the rest mesh; read it with Read")

// ReadFrame reads the whole OBJ file b as a frame of the mesh rest: its
// vertices, rounded to float32, into dst (len(rest.Verts) points), after
// checking that its faces split into rest's triangles. It is format.Load's
// fast path for a folder of frames: no mesh is built, and coordinates are
// parsed by hand (parseCoord), giving what Read then rounding to float32
// gives. It handles the lines frames hold — v with three coordinates, f
// with vertex indices only, comments, o, g, s, usemtl, mtllib and other
// lines Read ignores — and returns an error for anything else (vt, vn,
// vertex colours, f with v/vt/vn) and for every fault, without saying
// which: Read, whose errors name the line, reads those files.
func ReadFrame(b []byte, rest *mesh.Mesh, dst []linalg.Vec3f) error {
	if len(dst) != len(rest.Verts) {
		return errNotPlain
	}
	nv, nt := 0, 0
	var face []int
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) > maxLine {
			return errNotPlain
		}
		key, line := nextField(line)
		switch {
		case len(key) == 1 && key[0] == 'v':
			if nv == len(dst) {
				return errNotPlain
			}
			for k := 0; k < 3; k++ {
				line = skipSpace(line)
				x, n, ok := scanCoord(line)
				if ok && (n == len(line) || isSep(line[n])) {
					line = line[n:]
				} else {
					var f []byte
					f, line = nextField(line)
					if x, ok = slowCoord(f); !ok {
						return errNotPlain
					}
				}
				dst[nv][k] = x
			}
			if f, _ := nextField(line); len(f) > 0 {
				return errNotPlain // w or a colour: Read decides
			}
			nv++
		case len(key) == 1 && key[0] == 'f':
			face = face[:0]
			for {
				if line = skipSpace(line); len(line) == 0 || line[0] == '#' {
					break
				}
				k, n, ok := scanIndex(line)
				if ok && n < len(line) && !isSep(line[n]) {
					ok = false // v/vt/vn, or not a number
				}
				line = line[n:]
				switch {
				case !ok:
					return errNotPlain
				case k < 0:
					k += nv // relative: -1 is the last vertex read so far
				default:
					k--
				}
				if k < 0 {
					return errNotPlain
				}
				face = append(face, k)
			}
			if len(face) < 3 || nt+len(face)-2 > len(rest.Tris) {
				return errNotPlain
			}
			if len(face) == 3 {
				if face[0] == face[1] || face[0] == face[2] || face[1] == face[2] {
					return errNotPlain
				}
			} else if mesh.FirstRepeat(face) >= 0 {
				return errNotPlain
			}
			for i := 1; i+1 < len(face); i++ { // split as mesh.New splits
				if rest.Tris[nt] != [3]int{face[0], face[i], face[i+1]} {
					return errNotPlain
				}
				nt++
			}
		case string(key) == "vt" || string(key) == "vn":
			return errNotPlain
		}
	}
	if nv != len(dst) || nt != len(rest.Tris) {
		return errNotPlain
	}
	return nil
}

// skipSpace drops the spaces, tabs and carriage returns b starts with.
func skipSpace(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return b[i:]
}

// isSep reports whether c ends a field.
func isSep(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '#' }

// nextField returns the first field of the line b (split on spaces, tabs
// and carriage returns, as splitFields splits) and what follows it; a
// comment ends the line, as Read strips it.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '#' {
		j++
	}
	if j < len(b) && b[j] == '#' {
		return b[i:j], nil
	}
	return b[i:j], b[j:]
}

// scanIndex parses the face index b starts with as strconv.Atoi parses
// it, refusing 0 and numbers of more than 9 digits; n is its length.
func scanIndex(b []byte) (k, n int, ok bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg, n = b[0] == '-', 1
	}
	start := n
	for n < len(b) && b[n]-'0' <= 9 {
		k = 10*k + int(b[n]-'0')
		n++
	}
	if n == start || n-start > 9 || k == 0 {
		return 0, n, false
	}
	if neg {
		k = -k
	}
	return k, n, true
}

// slowCoord is Read's parse of a coordinate, rounded to float32.
func slowCoord(s []byte) (float32, bool) {
	x, err := strconv.ParseFloat(string(s), 64)
	if err != nil || !finite(x) {
		return 0, false
	}
	return float32(x), true
}

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseCoord parses the decimal number s, the whole of it, as scanCoord
// does.
func parseCoord(s []byte) (float32, bool) {
	x, n, ok := scanCoord(s)
	return x, ok && n == len(s)
}

// scanCoord parses the decimal number s starts with, in the forms OBJ
// writers use —
// [+-]digits[.digits][(e|E)[+-]digits], up to 19 significant digits and a
// decimal exponent within ±22 — and returns float32(x) for the x that
// strconv.ParseFloat returns for those n bytes. ok is false for every
// other form and for the rare values it cannot settle; the caller then
// uses strconv on the whole field.
//
// The mantissa m (< 10¹⁹) and the power of ten 10^e (exact in float64)
// give x' = float64(m) ×/÷ 10^e within two float64 ulps of x (two
// roundings of half an ulp). float32(x') differs from float32(x) only
// when x lies near a midpoint between two float32 values; those are the
// values whose 29 bits below float32's precision are within 8 ulps of
// half, which are left to strconv.
func scanCoord(s []byte) (v float32, n int, ok bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var m uint64
	nd, digits, e10 := 0, 0, 0 // significant digits kept, digits read, exponent
	for ; i < len(s) && s[i]-'0' <= 9; i++ {
		digits++
		if m == 0 && s[i] == '0' {
			continue
		}
		if nd == 19 {
			return 0, 0, false
		}
		m, nd = 10*m+uint64(s[i]-'0'), nd+1
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i]-'0' <= 9; i++ {
			digits++
			e10--
			if m == 0 && s[i] == '0' {
				continue
			}
			if nd == 19 {
				return 0, 0, false
			}
			m, nd = 10*m+uint64(s[i]-'0'), nd+1
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		start, x := i, 0
		for ; i < len(s) && s[i]-'0' <= 9; i++ {
			if x < 1000 {
				x = 10*x + int(s[i]-'0')
			}
		}
		if i == start {
			return 0, 0, false
		}
		if eneg {
			x = -x
		}
		e10 += x
	}
	if m == 0 {
		if neg {
			return float32(math.Copysign(0, -1)), i, true
		}
		return 0, i, true
	}
	if e10 < -22 || e10 > 22 {
		return 0, 0, false
	}
	x := float64(m)
	if e10 < 0 {
		x /= pow10[-e10]
	} else {
		x *= pow10[e10]
	}
	if low := math.Float64bits(x) & (1<<29 - 1); low > 1<<28-8 && low < 1<<28+8 {
		return 0, 0, false
	}
	if neg {
		x = -x
	}
	return float32(x), i, true
}
