package off

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

// longFace returns an OFF of n vertices and one face through them all
// (0-based indices), with the face's entries at the given positions
// replaced.
func longFace(n int, set map[int]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "OFF\n%d 1 0\n", n)
	for i := range n {
		fmt.Fprintf(&b, "%d %d 0\n", i%1000, i/1000)
	}
	fmt.Fprintf(&b, "%d", n)
	for i := range n {
		s, ok := set[i]
		if !ok {
			s = strconv.Itoa(i)
		}
		b.WriteString(" " + s)
	}
	b.WriteString("\n")
	return b.Bytes()
}

// TestLongFaceErrors: a face of 120,000 vertices gives the errors a short
// one does, for whichever problem comes first along it: a vertex used
// twice, or an index out of range.
func TestLongFaceErrors(t *testing.T) {
	const n = 120000
	for _, c := range []struct {
		name string
		set  map[int]string
		want string
	}{
		{"twice", map[int]string{90000: "40000"}, "face 1 uses vertex 40000 twice"},
		{"twice before out of range", map[int]string{90000: "40000", 100000: "120000"}, "face 1 uses vertex 40000 twice"},
		{"out of range before twice", map[int]string{80000: "-1", 90000: "40000"}, `face 1: vertex index "-1" out of range (120000 vertices, 0-based)`},
		{"not a number", map[int]string{80000: "x"}, `face 1: vertex index "x" out of range`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(longFace(n, c.set)))
			var pe *format.ParseError
			if !errors.As(err, &pe) || pe.Line != n+3 || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one on line %d saying %q", err, n+3, c.want)
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
	if m.NumPolys() != 1 || len(m.Poly(0)) != n {
		t.Errorf("%d polygons, the first of %d vertices", m.NumPolys(), len(m.Poly(0)))
	}
}

// BenchmarkReadLongFace reads an OFF whose one face has 120,000 vertices
// (the pairwise check of obj.Read, issue 12, was here too).
func BenchmarkReadLongFace(b *testing.B) {
	data := longFace(120000, nil)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
