package off

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

func init() {
	format.Register(format.Format{Name: "off", Exts: []string{".off"}, Mesh: Read})
}

// maxCount bounds the vertex and face counts a header may announce, so a
// corrupt count is refused before anything is allocated for it.
const maxCount = 1 << 26

// lines yields the fields of the non-empty, comment-free lines of a file,
// counting lines for error messages.
type lines struct {
	sc   *bufio.Scanner
	line int
}

// next returns the next line's fields; format.ErrTruncated at the end.
func (l *lines) next() ([]string, error) {
	for l.sc.Scan() {
		l.line++
		s := l.sc.Text()
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		if f := strings.Fields(s); len(f) > 0 {
			return f, nil
		}
	}
	if err := l.sc.Err(); err != nil {
		return nil, err
	}
	return nil, format.ErrTruncated
}

// Read parses an OFF mesh. Errors are *format.ParseError with the line;
// a file that ends early wraps format.ErrTruncated.
func Read(r io.Reader) (*mesh.Mesh, error) {
	l := &lines{sc: bufio.NewScanner(r)}
	l.sc.Buffer(make([]byte, 64*1024), 1<<20)
	fail := func(err error) error {
		return &format.ParseError{Line: l.line, Offset: -1, Err: err}
	}
	f, err := l.next()
	if err != nil {
		return nil, fail(fmt.Errorf("no OFF header: %w", err))
	}
	head := f[0]
	if !strings.HasSuffix(head, "OFF") {
		return nil, fail(fmt.Errorf("not an OFF file (header %q)", head))
	}
	if strings.ContainsAny(strings.TrimSuffix(head, "OFF"), "4n") {
		return nil, fail(fmt.Errorf("%w: %s (4D or n-dimensional) meshes", format.ErrUnsupported, head))
	}
	f = f[1:]
	if len(f) > 0 && strings.EqualFold(f[0], "BINARY") {
		return nil, fail(fmt.Errorf("%w: binary OFF", format.ErrUnsupported))
	}
	if len(f) == 0 {
		if f, err = l.next(); err != nil {
			return nil, fail(fmt.Errorf("no counts line: %w", err))
		}
	}
	if len(f) < 2 {
		return nil, fail(errors.New("counts line needs vertex and face counts"))
	}
	nv, e1 := strconv.Atoi(f[0])
	nf, e2 := strconv.Atoi(f[1])
	if e1 != nil || e2 != nil || nv < 0 || nf < 0 || nv > maxCount || nf > maxCount {
		return nil, fail(fmt.Errorf("bad counts %q %q (want vertex and face counts up to %d)", f[0], f[1], maxCount))
	}
	if nv == 0 {
		return nil, fail(errors.New("no vertices"))
	}
	verts, err := readVerts(l, nv)
	if err != nil {
		return nil, fail(err)
	}
	polys, err := readFaces(l, nf, nv)
	if err != nil {
		return nil, fail(err)
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		return nil, &format.ParseError{Offset: -1, Err: err}
	}
	return m, nil
}

// readVerts reads nv vertex lines; values past x y z (colours, normals,
// texture coordinates) are ignored.
func readVerts(l *lines, nv int) ([]linalg.Vec3, error) {
	// Grow with the data rather than trusting the header's count.
	verts := make([]linalg.Vec3, 0, min(nv, 1<<16))
	for i := 0; i < nv; i++ {
		f, err := l.next()
		if err != nil {
			return nil, fmt.Errorf("file ends after %d of %d vertices: %w", i, nv, err)
		}
		if len(f) < 3 {
			return nil, fmt.Errorf("vertex %d has %d values, want x y z", i+1, len(f))
		}
		var v linalg.Vec3
		for k := 0; k < 3; k++ {
			x, err := strconv.ParseFloat(f[k], 64)
			if err != nil || x-x != 0 {
				return nil, fmt.Errorf("vertex %d: bad coordinate %q", i+1, f[k])
			}
			v[k] = x
		}
		verts = append(verts, v)
	}
	return verts, nil
}

// readFaces reads nf face lines "k i0 … ik-1 [colour]".
func readFaces(l *lines, nf, nv int) ([][]int, error) {
	polys := make([][]int, 0, min(nf, 1<<16))
	for k := 0; k < nf; k++ {
		f, err := l.next()
		if err != nil {
			return nil, fmt.Errorf("file ends after %d of %d faces: %w", k, nf, err)
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 3 {
			return nil, fmt.Errorf("face %d: bad vertex count %q (want 3 or more)", k+1, f[0])
		}
		if n > len(f)-1 {
			return nil, fmt.Errorf("face %d lists %d of its %d vertices", k+1, len(f)-1, n)
		}
		p := make([]int, n)
		// The first problem along the face: a repeat before the first
		// bad index, or that index.
		r := n
		for a := range p {
			i, err := strconv.Atoi(f[1+a])
			if err != nil || i < 0 || i >= nv {
				r = a
				break
			}
			p[a] = i
		}
		if a := mesh.FirstRepeat(p[:r]); a >= 0 {
			return nil, fmt.Errorf("face %d uses vertex %d twice: %w", k+1, p[a], mesh.ErrDegenerate)
		}
		if r < n {
			return nil, fmt.Errorf("face %d: vertex index %q out of range (%d vertices, 0-based)", k+1, f[1+r], nv)
		}
		polys = append(polys, p)
	}
	return polys, nil
}
