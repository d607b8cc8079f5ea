package off

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
)

func read(t *testing.T, name string) (*mesh.Mesh, error) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return Read(bytes.NewReader(b))
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		file              string
		verts, polys, tri int
	}{
		{"quad.off", 4, 1, 2},
		{"inline-counts.off", 4, 1, 2},
		{"tetra-colors.off", 4, 4, 4},
	} {
		t.Run(tc.file, func(t *testing.T) {
			m, err := read(t, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Verts) != tc.verts || m.NumPolys() != tc.polys || len(m.Tris) != tc.tri {
				t.Fatalf("%d verts %d polys %d tris, want %d %d %d", len(m.Verts), m.NumPolys(), len(m.Tris), tc.verts, tc.polys, tc.tri)
			}
		})
	}
	// The quad stays one polygon, in file order; colours are not coordinates.
	m, _ := read(t, "quad.off")
	if p := m.Poly(0); len(p) != 4 || p[0] != 0 || p[3] != 3 {
		t.Errorf("quad = %v", p)
	}
	m, _ = read(t, "tetra-colors.off")
	if m.Verts[3] != [3]float64{0, 0, 1} || m.Tris[0] != [3]int{0, 2, 1} {
		t.Errorf("vertex 4 %v, face 1 %v", m.Verts[3], m.Tris[0])
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string // in: a testdata file, or the text itself
		line     int
		is       error
		want     string
	}{
		{"header", "PLY\n", 1, nil, "not an OFF"},
		{"empty", "", 0, format.ErrTruncated, "no OFF header"},
		{"no counts", "OFF\n# nothing else\n", 2, format.ErrTruncated, "no counts"},
		{"counts", "OFF\nx y z\n", 2, nil, "bad counts"},
		{"one count", "OFF\n3\n", 2, nil, "vertex and face counts"},
		{"huge counts", "invalid-counts.off", 2, nil, "bad counts"},
		{"no vertices", "OFF\n0 0 0\n", 2, nil, "no vertices"},
		{"truncated", "invalid-truncated.off", 4, format.ErrTruncated, "ends after 2 of 3 vertices"},
		{"faces truncated", "OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", 6, format.ErrTruncated, "ends after 1 of 2 faces"},
		{"short vertex", "OFF\n3 1 0\n0 0\n", 3, nil, "vertex 1 has 2 values"},
		{"index", "invalid-index.off", 6, nil, "out of range"},
		{"degenerate", "invalid-degenerate.off", 6, mesh.ErrDegenerate, "twice"},
		{"infinite", "invalid-inf.off", 4, nil, "vertex 2: bad coordinate"},
		{"short face", "invalid-short-face.off", 6, nil, "lists 3 of its 4 vertices"},
		{"edge face", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n2 0 1\n", 6, nil, "bad vertex count"},
		{"4d", "4OFF\n", 1, format.ErrUnsupported, "4D"},
		{"nd", "nOFF\n", 1, format.ErrUnsupported, "n-dimensional"},
		{"binary", "invalid-binary.off", 1, format.ErrUnsupported, "binary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			if strings.HasSuffix(tc.in, ".off") {
				var err error
				if in, err = os.ReadFile("testdata/" + tc.in); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Read(bytes.NewReader(in))
			var pe *format.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a ParseError containing %q", err, tc.want)
			}
			if pe.Line != tc.line {
				t.Errorf("line %d, want %d (%v)", pe.Line, tc.line, err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err = %v, want %v", err, tc.is)
			}
		})
	}
}
