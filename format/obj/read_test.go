package obj

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
)

func TestReadForms(t *testing.T) {
	b, err := os.ReadFile("testdata/forms.obj")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Verts) != 5 || len(m.Tris) != 3 {
		t.Fatalf("%d verts %d tris", len(m.Verts), len(m.Tris))
	}
	// f -3 -2 -1 after five vertices is 3 4 5 (1-based).
	if m.Tris[2] != [3]int{2, 3, 4} {
		t.Errorf("relative face = %v", m.Tris[2])
	}
	if m.Tris[1] != [3]int{1, 3, 2} {
		t.Errorf("v//vn face = %v", m.Tris[1])
	}
}

func TestQuadRoundTrip(t *testing.T) {
	b, _ := os.ReadFile("testdata/quad.obj")
	m, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if m.NumPolys() != 1 || len(m.Tris) != 2 {
		t.Fatalf("polys %d tris %d", m.NumPolys(), len(m.Tris))
	}
	var out bytes.Buffer
	if err := Write(&out, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "f 1 2 3 4\n") {
		t.Errorf("quad not written back:\n%s", out.String())
	}
	m2, err := Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	assertSame(t, m, m2)
}

func assertSame(t *testing.T, a, b *mesh.Mesh) {
	t.Helper()
	if len(a.Verts) != len(b.Verts) || a.NumPolys() != b.NumPolys() {
		t.Fatalf("sizes differ: %d/%d verts, %d/%d polys", len(a.Verts), len(b.Verts), a.NumPolys(), b.NumPolys())
	}
	for i := range a.Verts {
		if a.Verts[i] != b.Verts[i] {
			t.Fatalf("vertex %d: %v vs %v", i, a.Verts[i], b.Verts[i])
		}
	}
	for k := 0; k < a.NumPolys(); k++ {
		pa, pb := a.Poly(k), b.Poly(k)
		if len(pa) != len(pb) {
			t.Fatalf("polygon %d differs", k)
		}
		for i := range pa {
			if pa[i] != pb[i] {
				t.Fatalf("polygon %d differs: %v vs %v", k, pa, pb)
			}
		}
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		want     string
	}{
		{"index out of range", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 4, "out of range"},
		{"zero index", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "bad vertex index"},
		{"relative before start", "v 0 0 0\nf -1 -2 -3\n", 2, "before the first vertex"},
		{"bad number", "v 0 zero 0\n", 1, "bad coordinate"},
		{"nan", "v 0 nan 0\n", 1, "bad coordinate"},
		{"short vertex", "v 0 0\n", 1, "need 3"},
		{"two-vertex face", "v 0 0 0\nv 1 0 0\nf 1 2\n", 3, "at least 3"},
		{"degenerate", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 2\n", 4, "twice"},
		{"empty", "# nothing\n", 0, "no vertices"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			var pe *format.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if pe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (line %d), want line %d containing %q", err, pe.Line, tc.line, tc.want)
			}
		})
	}
	_, err := Read(strings.NewReader("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 2\n"))
	if !errors.Is(err, mesh.ErrDegenerate) {
		t.Errorf("degenerate face does not wrap mesh.ErrDegenerate: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	for _, n := range []string{"testdata/quad.obj", "testdata/forms.obj", "testdata/invalid-index.obj", "testdata/textured/textured.obj"} {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("v 1 2 3\nv 4 5 6\nv 7 8 9\nf -1 -2 -3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Read returned an invalid mesh: %v", err)
		}
		var out bytes.Buffer
		if err := Write(&out, m); err != nil {
			t.Fatal(err)
		}
		m2, err := Read(&out)
		if err != nil {
			t.Fatalf("written mesh does not read back: %v", err)
		}
		assertSame(t, m, m2)
	})
}
