package off

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
)

func TestReadQuad(t *testing.T) {
	b, _ := os.ReadFile("testdata/quad.off")
	m, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Verts) != 4 || m.NumPolys() != 1 || len(m.Tris) != 2 {
		t.Fatalf("%d verts %d polys %d tris", len(m.Verts), m.NumPolys(), len(m.Tris))
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"header", "PLY\n", "not an OFF"},
		{"counts", "OFF\nx y z\n", "bad counts"},
		{"truncated", "OFF\n3 1 0\n0 0 0\n1 0 0\n", "ends after 2 of 3 vertices"},
		{"index", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", "out of range"},
		{"degenerate", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 1\n", "twice"},
		{"nan", "OFF\n3 1 0\n0 0 nan\n1 0 0\n0 1 0\n3 0 1 2\n", "bad coordinate"},
		{"4d", "4OFF\n", "unsupported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			var pe *format.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a ParseError containing %q", err, tc.want)
			}
		})
	}
}

// TestSharedStaticMeshes reads every static mesh of the shared data.
func TestSharedStaticMeshes(t *testing.T) {
	dir := shareddata.Path(t, "static")
	files, _ := filepath.Glob(filepath.Join(dir, "*.gz"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			m, err := format.ReadMesh(f)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d vertices, %d polygons, %d components", len(m.Verts), m.NumPolys(), mesh.NewTopology(m).NumComponents)
		})
	}
}

func FuzzRead(f *testing.F) {
	b, _ := os.ReadFile("testdata/quad.off")
	f.Add(b)
	f.Add([]byte("COFF\n3 1 0\n0 0 0 1 1 1 1\n1 0 0 1 1 1 1\n0 1 0 1 1 1 1\n3 0 1 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err == nil {
			if err := m.Validate(); err != nil {
				t.Fatalf("invalid mesh accepted: %v", err)
			}
		}
	})
}
