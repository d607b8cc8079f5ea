package abc

import (
	"slices"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/fbx" // Bone_Geom.fbx, the cache's rest mesh
	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestWindingMatchesFBX compares the cache with its rest mesh as Maya
// wrote it to FBX: the same polygons, vertex for vertex and corner for
// corner (so the reversed winding is Maya's own), and the first frame
// near the rest pose.
func TestWindingMatchesFBX(t *testing.T) {
	rest, err := format.ReadScene(shareddata.Path(t, "dembones/Bone_Geom.fbx"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := format.ReadScene(shareddata.Path(t, boneAnim), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := rest.Mesh, sc.Sequence.Rest
	if a.NumPolys() != b.NumPolys() || len(a.Verts) != len(b.Verts) {
		t.Fatalf("FBX: %d polygons, %d vertices; Alembic: %d, %d", a.NumPolys(), len(a.Verts), b.NumPolys(), len(b.Verts))
	}
	for k := 0; k < a.NumPolys(); k++ {
		if !slices.Equal(a.Poly(k), b.Poly(k)) {
			t.Fatalf("polygon %d: FBX %v, Alembic %v", k+1, a.Poly(k), b.Poly(k))
		}
	}
	d := sc.Sequence.Diagonal()
	worst := 0.0
	for i := range a.Verts {
		worst = max(worst, a.Verts[i].Sub(b.Verts[i]).Norm()/d)
	}
	// Measured: 3.4e-5·d, float32 round-off of the Xform's translation.
	if worst > 1e-4 {
		t.Errorf("first frame vs FBX rest: largest distance %.3g of the diagonal, want under 1e-4", worst)
	}
}
