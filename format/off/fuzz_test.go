package off

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead checks that Read never panics and only returns valid meshes.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.off")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("invalid mesh accepted: %v", err)
		}
		if len(m.Verts) == 0 || m.NumPolys() > len(m.Tris) {
			t.Fatalf("%d vertices, %d polygons, %d triangles", len(m.Verts), m.NumPolys(), len(m.Tris))
		}
	})
}
