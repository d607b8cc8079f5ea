// Package off reads Object File Format meshes (.off): an "OFF" header,
// vertex/face/edge counts, vertices, then faces as "k i0 … ik-1" (0-based);
// polygons are kept. Comments start with '#'. Colour variants (COFF) and
// trailing per-face colours are read and ignored.
//
// Importing the package registers ".off" (and ".off.gz") with package
// format as a per-frame mesh format.
package off

import (
	"bufio"
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

// maxCount bounds the vertex and face counts a header may announce.
const maxCount = 1 << 26

// Read parses an OFF mesh. Errors are *format.ParseError with the line.
func Read(r io.Reader) (*mesh.Mesh, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	// next returns the fields of the next non-empty, non-comment line.
	next := func() ([]string, error) {
		for sc.Scan() {
			line++
			s := sc.Text()
			if i := strings.IndexByte(s, '#'); i >= 0 {
				s = s[:i]
			}
			if f := strings.Fields(s); len(f) > 0 {
				return f, nil
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, io.ErrUnexpectedEOF
	}
	fail := func(msg string, a ...any) error {
		return &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf(msg, a...)}
	}
	f, err := next()
	if err != nil {
		return nil, fail("empty file")
	}
	head := f[0]
	if !strings.HasSuffix(head, "OFF") {
		return nil, fail("not an OFF file (header %q)", head)
	}
	if strings.Contains(head, "4") || strings.Contains(head, "n") {
		return nil, fail("%w: %s (4D or n-dimensional) meshes", format.ErrUnsupported, head)
	}
	colored := strings.Contains(head, "C")
	f = f[1:]
	if len(f) == 0 {
		if f, err = next(); err != nil {
			return nil, fail("missing counts line")
		}
	}
	if len(f) < 2 {
		return nil, fail("counts line needs vertex and face counts")
	}
	nv, e1 := strconv.Atoi(f[0])
	nf, e2 := strconv.Atoi(f[1])
	if e1 != nil || e2 != nil || nv < 0 || nf < 0 || nv > maxCount || nf > maxCount {
		return nil, fail("bad counts %q %q", f[0], f[1])
	}
	verts := make([]linalg.Vec3, 0, min(nv, 1<<20))
	for i := 0; i < nv; i++ {
		f, err := next()
		if err != nil {
			return nil, fail("file ends after %d of %d vertices: %w", i, nv, format.ErrTruncated)
		}
		if len(f) < 3 || (colored && len(f) < 6) {
			return nil, fail("vertex %d has %d values", i+1, len(f))
		}
		var v linalg.Vec3
		for k := 0; k < 3; k++ {
			x, err := strconv.ParseFloat(f[k], 64)
			if err != nil || x-x != 0 {
				return nil, fail("vertex %d: bad coordinate %q", i+1, f[k])
			}
			v[k] = x
		}
		verts = append(verts, v)
	}
	polys := make([][]int, 0, min(nf, 1<<20))
	for k := 0; k < nf; k++ {
		f, err := next()
		if err != nil {
			return nil, fail("file ends after %d of %d faces: %w", k, nf, format.ErrTruncated)
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 3 || n > len(f)-1 {
			return nil, fail("face %d: bad vertex count %q", k+1, f[0])
		}
		p := make([]int, n)
		for a := 0; a < n; a++ {
			i, err := strconv.Atoi(f[1+a])
			if err != nil || i < 0 || i >= nv {
				return nil, fail("face %d: vertex index %q out of range (%d vertices)", k+1, f[1+a], nv)
			}
			for _, j := range p[:a] {
				if j == i {
					return nil, fail("face %d uses vertex %d twice: %w", k+1, i, mesh.ErrDegenerate)
				}
			}
			p[a] = i
		}
		polys = append(polys, p)
	}
	if nv == 0 {
		return nil, fail("no vertices")
	}
	return mesh.New(verts, polys)
}
