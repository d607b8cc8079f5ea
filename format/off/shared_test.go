package off

import (
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
)

// TestSharedStaticMeshes reads every static mesh of the shared data (the
// .obj.gz ones through the obj reader) and checks what the data's README
// says of them.
func TestSharedStaticMeshes(t *testing.T) {
	dir := shareddata.Path(t, "static")
	files, _ := filepath.Glob(filepath.Join(dir, "*.gz"))
	if len(files) == 0 {
		t.Fatalf("%s holds no meshes", dir)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			m, err := format.ReadMesh(f)
			if err != nil {
				t.Fatal(err)
			}
			top := mesh.NewTopology(m)
			boundary := 0
			for _, adj := range top.FaceAdj {
				for _, a := range adj {
					if a < 0 {
						boundary++
					}
				}
			}
			// Euler characteristic of the triangulated surface: 2 − 2·genus
			// per closed component.
			chi := len(m.Verts) - len(top.Edges) + len(m.Tris)
			t.Logf("%d vertices, %d polygons (%d triangles), %d components, %d boundary edges, χ = %d",
				len(m.Verts), m.NumPolys(), len(m.Tris), top.NumComponents, boundary, chi)
			switch name {
			case "armadillo.obj.gz":
				if len(m.Verts) != 43243 {
					t.Errorf("armadillo has %d vertices, want 43243", len(m.Verts))
				}
			case "horse_quad.obj.gz":
				if len(m.Tris) < 2*m.NumPolys()-m.NumPolys()/10 {
					t.Errorf("horse_quad: %d polygons make %d triangles: the quads were lost", m.NumPolys(), len(m.Tris))
				}
			case "fertility.off.gz":
				if boundary != 0 || top.NumComponents != 1 || chi != 2-2*4 {
					t.Errorf("fertility: %d boundary edges, %d components, χ = %d; want a closed genus-4 surface (χ = -6)", boundary, top.NumComponents, chi)
				}
			}
		})
	}
}
