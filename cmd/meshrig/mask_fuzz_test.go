package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// FuzzReadMask: any mask file is read or refused, never a panic; a read
// mask has one finite value ≥ 0 per vertex.
func FuzzReadMask(f *testing.F) {
	for _, seed := range []string{"1\n0\n1\n", "0.5\n# painted\n\n1\n0\n", "1\nx\n", "1e400\n0\n1\n", "-1\n0\n0\n", ""} {
		f.Add([]byte(seed))
	}
	r := &rig.Rig{Mesh: &mesh.Mesh{Verts: make([]linalg.Vec3, 3)}}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "mask.txt")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := readMask(p, r)
		if err != nil {
			return
		}
		if len(m) != 3 {
			t.Fatalf("%d values for 3 vertices", len(m))
		}
		for _, v := range m {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("value %v", v)
			}
		}
	})
}
