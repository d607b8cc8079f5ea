package obj

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
)

// longFace returns an OBJ of n vertices and one face through them all
// (1-based indices), with the face's entries at the given positions
// replaced.
func longFace(n int, set map[int]string) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "v %d %d 0\n", i%1000, i/1000)
	}
	b.WriteString("f")
	for i := range n {
		s, ok := set[i]
		if !ok {
			s = strconv.Itoa(i + 1)
		}
		b.WriteString(" " + s)
	}
	b.WriteString("\n")
	return b.Bytes()
}

// TestLongFaceErrors: a face of 120,000 vertices gives the errors a short
// one does, on the face's line, for whichever problem comes first along
// it: a vertex used twice, or an index out of range.
func TestLongFaceErrors(t *testing.T) {
	const n = 120000
	for _, c := range []struct {
		name string
		set  map[int]string
		want string
	}{
		{"twice", map[int]string{90000: "40001"}, "face uses vertex 40001 twice"},
		{"twice, relative", map[int]string{90000: "-1"}, "face uses vertex 120000 twice"},
		{"twice before out of range", map[int]string{90000: "40001", 100000: "120001"}, "face uses vertex 40001 twice"},
		{"out of range before twice", map[int]string{80000: "120001", 90000: "40001"}, "vertex index 120001 out of range (the file has 120000 vertices)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(longFace(n, c.set)))
			var pe *format.ParseError
			if !errors.As(err, &pe) || pe.Line != n+1 || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one on line %d saying %q", err, n+1, c.want)
			}
			if strings.Contains(c.want, "twice") && !errors.Is(err, mesh.ErrDegenerate) {
				t.Errorf("%v does not wrap mesh.ErrDegenerate", err)
			}
		})
	}
	m, err := Read(bytes.NewReader(longFace(n, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if m.NumPolys() != 1 || len(m.Poly(0)) != n || len(m.Tris) != n-2 {
		t.Errorf("%d polygons, the first of %d vertices, %d triangles", m.NumPolys(), len(m.Poly(0)), len(m.Tris))
	}
}

// BenchmarkReadLongFace reads an OBJ whose one face has 120,000 vertices
// (issue 12: 7.8 s with the pairwise checks in Read and mesh.Validate).
func BenchmarkReadLongFace(b *testing.B) {
	data := longFace(120000, nil)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
