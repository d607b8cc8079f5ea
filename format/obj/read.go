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
	format.Register(format.Format{Name: "obj", Exts: []string{".obj"}, Mesh: Read})
}

// maxLine bounds one line, so a file without newlines cannot exhaust memory.
const maxLine = 1 << 20

// Read parses an OBJ mesh. Errors are *format.ParseError with the line
// (and column of the offending field); the file name is left to the
// caller (format.WithFile).
func Read(r io.Reader) (*mesh.Mesh, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var verts []linalg.Vec3
	var polys [][]int
	var faceLine []int
	var idx []int
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
				return nil, fail(1, "vertex has %d coordinates, need 3", len(fields)-1)
			}
			var v linalg.Vec3
			for k := 0; k < 3; k++ {
				x, err := strconv.ParseFloat(string(fields[k+1].s), 64)
				if err != nil || !finite(x) {
					return nil, fail(fields[k+1].col, "bad coordinate %q", fields[k+1].s)
				}
				v[k] = x
			}
			verts = append(verts, v)
		case "f":
			if len(fields) < 4 {
				return nil, fail(1, "face has %d vertices, need at least 3", len(fields)-1)
			}
			idx = idx[:0]
			for _, f := range fields[1:] {
				s := f.s
				if i := bytes.IndexByte(s, '/'); i >= 0 {
					s = s[:i]
				}
				k, err := strconv.Atoi(string(s))
				if err != nil || k == 0 {
					return nil, fail(f.col, "bad vertex index %q", f.s)
				}
				if k < 0 {
					k += len(verts) // -1 is the last vertex read so far
				} else {
					k--
				}
				if k < 0 {
					return nil, fail(f.col, "relative index %q reaches before the first vertex", f.s)
				}
				idx = append(idx, k)
			}
			polys = append(polys, append([]int(nil), idx...))
			faceLine = append(faceLine, line)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, perr(line+1, 0, fmt.Errorf("line longer than %d bytes", maxLine))
		}
		return nil, err
	}
	if len(verts) == 0 {
		return nil, perr(0, 0, fmt.Errorf("no vertices"))
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
			return nil, perr(faceLine[k], 0, fmt.Errorf("face uses vertex %d twice: %w", p[a]+1, mesh.ErrDegenerate))
		}
		if r < len(p) {
			return nil, perr(faceLine[k], 0, fmt.Errorf("vertex index %d out of range (the file has %d vertices)", p[r]+1, len(verts)))
		}
	}
	return mesh.New(verts, polys)
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
