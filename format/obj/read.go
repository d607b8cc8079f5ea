package obj

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

func init() {
	format.Register(format.Format{Name: "obj", Exts: []string{".obj"}, Mesh: Read, MeshFS: ReadFS, Frame: ReadFrame})
}

// maxLine bounds one line, so a file without newlines cannot exhaust memory.
const maxLine = 1 << 20

// Read parses an OBJ mesh. Errors are *format.ParseError with the line
// (and column of the offending field); the file name is left to the
// caller (format.WithFile). The mesh's Surface keeps texture coordinates
// (vt, v flipped to count down from the image's top) and normals (vn) per
// face corner, vertex colours (v x y z r g b, white where a vertex has
// none), a material per usemtl name (named only: ReadFS reads the
// libraries), and a part per object (o, else g) and material, in order of
// first use; nil when the file has none of them.
func Read(r io.Reader) (*mesh.Mesh, error) {
	m, _, err := read(r)
	return m, err
}

// corner is one face corner's vt and vn indices (0-based; -1 for none).
type corner struct{ vt, vn int }

// read parses an OBJ mesh and returns the material libraries it names.
func read(r io.Reader) (*mesh.Mesh, []string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var verts []linalg.Vec3
	var polys [][]int
	var faceLine []int
	var idx []int
	var lk looks
	line := 0
	fail := func(col int, msg string, a ...any) error {
		return perr(line, col, fmt.Errorf(msg, a...))
	}
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if i := bytes.IndexByte(b, '#'); i >= 0 {
			b = b[:i]
		}
		fields := splitFields(b)
		if len(fields) == 0 {
			continue
		}
		switch string(fields[0].s) {
		case "v":
			if len(fields) < 4 {
				return nil, nil, fail(1, "vertex has %d coordinates, need 3", len(fields)-1)
			}
			var v linalg.Vec3
			for k := 0; k < 3; k++ {
				x, err := strconv.ParseFloat(string(fields[k+1].s), 64)
				if err != nil || !finite(x) {
					return nil, nil, fail(fields[k+1].col, "bad coordinate %q", fields[k+1].s)
				}
				v[k] = x
			}
			verts = append(verts, v)
			if len(fields) >= 7 { // x y z r g b: a vertex colour, as MeshLab writes
				if err := lk.vertexColor(fields[4:7], len(verts)); err != nil {
					return nil, nil, perr(line, err.col, err.err)
				}
			}
		case "vt", "vn":
			if err := lk.value(fields); err != nil {
				return nil, nil, perr(line, err.col, err.err)
			}
		case "usemtl", "o", "g":
			lk.name(string(fields[0].s), restOf(b, fields))
		case "mtllib":
			for _, f := range fields[1:] {
				lk.libs = append(lk.libs, string(f.s))
			}
		case "f":
			if len(fields) < 4 {
				return nil, nil, fail(1, "face has %d vertices, need at least 3", len(fields)-1)
			}
			idx = idx[:0]
			lk.face = lk.face[:0]
			for _, f := range fields[1:] {
				parts := splitSlash(f.s)
				k, err := index(parts[0], len(verts), "vertex", f.s)
				if err != nil {
					return nil, nil, perr(line, f.col, err)
				}
				c := corner{-1, -1}
				if len(parts[1]) > 0 {
					if c.vt, err = index(parts[1], len(lk.uv), "texture coordinate", f.s); err != nil {
						return nil, nil, perr(line, f.col, err)
					}
				}
				if len(parts[2]) > 0 {
					if c.vn, err = index(parts[2], len(lk.normal), "normal", f.s); err != nil {
						return nil, nil, perr(line, f.col, err)
					}
				}
				idx = append(idx, k)
				lk.face = append(lk.face, c)
			}
			polys = append(polys, append([]int(nil), idx...))
			faceLine = append(faceLine, line)
			lk.addFace()
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, perr(line+1, 0, fmt.Errorf("line longer than %d bytes", maxLine))
		}
		return nil, nil, err
	}
	if len(verts) == 0 {
		return nil, nil, perr(0, 0, fmt.Errorf("no vertices"))
	}
	// Index checks need the whole vertex list: OBJ may refer forward.
	for k, p := range polys {
		// The first problem along the face: a repeat before the first
		// index out of range, or that index.
		r := len(p)
		for a, i := range p {
			if i >= len(verts) {
				r = a
				break
			}
		}
		if a := mesh.FirstRepeat(p[:r]); a >= 0 {
			return nil, nil, perr(faceLine[k], 0, fmt.Errorf("face uses vertex %d twice: %w", p[a]+1, mesh.ErrDegenerate))
		}
		if r < len(p) {
			return nil, nil, perr(faceLine[k], 0, fmt.Errorf("vertex index %d out of range (the file has %d vertices)", p[r]+1, len(verts)))
		}
	}
	if err := lk.check(polys, faceLine); err != nil {
		return nil, nil, err
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		return nil, nil, err
	}
	lk.padColors(len(verts))
	if m.Surface, err = lk.surface(m, polys); err != nil {
		return nil, nil, err // a bug here, not in the file
	}
	if m.Surface != nil {
		if err := m.Surface.Validate(len(m.Verts), len(m.Tris)); err != nil {
			return nil, nil, err // a bug here, not in the file
		}
	}
	return m, lk.libs, nil
}

// index parses a 1-based OBJ index, or a negative one relative to the n
// elements read so far, into a 0-based one; what names the kind and
// field the face field, for errors.
func index(s []byte, n int, what string, field []byte) (int, error) {
	k, err := strconv.Atoi(string(s))
	if err != nil || k == 0 {
		return 0, fmt.Errorf("bad %s index %q", what, field)
	}
	if k < 0 {
		k += n // -1 is the last element read so far
		if k < 0 {
			return 0, fmt.Errorf("relative index %q reaches before the first %s", field, what)
		}
		return k, nil
	}
	return k - 1, nil
}

// splitSlash splits a face field v/vt/vn into its three parts (empty
// where absent) without allocating.
func splitSlash(s []byte) [3][]byte {
	var out [3][]byte
	for k := 0; k < 2; k++ {
		i := bytes.IndexByte(s, '/')
		if i < 0 {
			out[k] = s
			return out
		}
		out[k], s = s[:i], s[i+1:]
	}
	out[2] = s
	return out
}

// restOf returns the line after its first field, trimmed: a name that may
// hold spaces.
func restOf(b []byte, fields []field) string {
	if len(fields) < 2 {
		return ""
	}
	return string(bytes.TrimRight(b[fields[1].col-1:], " \t\r"))
}

// perr builds a format.ParseError for a text position.
func perr(line, col int, err error) error {
	return &format.ParseError{Line: line, Col: col, Offset: -1, Err: err}
}

type field struct {
	s   []byte
	col int
}

// splitFields splits on spaces and tabs, keeping each field's column.
func splitFields(b []byte) []field {
	var out []field
	i := 0
	for i < len(b) {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		if j > i {
			out = append(out, field{b[i:j], i + 1})
		}
		i = j
	}
	return out
}

func finite(x float64) bool { return x-x == 0 }
