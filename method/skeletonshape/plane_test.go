package skeletonshape

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/obj"
	_ "github.com/meshrig/meshrig/format/off"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/metric"
)

// sharedMesh reads a shared mesh: a static/ file, a rigs/ name or a
// gltf/ character's bind pose.
func sharedMesh(t *testing.T, name string) *mesh.Mesh {
	t.Helper()
	var p string
	switch {
	case filepath.Ext(name) == ".glb":
		p = shareddata.Path(t, filepath.Join("gltf", name))
		sc, err := format.ReadScene(p, format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return sc.Mesh
	case filepath.Ext(name) == ".gz":
		p = shareddata.Path(t, filepath.Join("static", name))
	default:
		p = shareddata.Path(t, filepath.Join("rigs", name, name+".obj.gz"))
	}
	m, err := format.ReadMesh(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSharedPlanes: the shared meshes that are mirror images of
// themselves get a plane with a residual under SymmetricResidual, found
// across their left-right axis (x for these files); the arm, which has
// none, is refused, and so is the horse, whose head is turned aside.
func TestSharedPlanes(t *testing.T) {
	for _, c := range []struct {
		name      string
		symmetric bool
		axis      int
	}{
		{"wolf", true, 0}, {"CesiumMan.glb", true, 0}, {"Fox.glb", true, 0},
		{"armadillo.obj.gz", true, 0}, {"camel_b.obj.gz", true, 0}, {"horse_quad.obj.gz", false, 2},
		{"arm", false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := sharedMesh(t, c.name)
			pl, ok := MirrorPlane(m)
			if !ok {
				t.Fatal("no plane")
			}
			t.Logf("residual %.3f%% normal %.3f", pl.Residual, pl.Normal)
			if got := pl.Residual <= SymmetricResidual; got != c.symmetric {
				t.Fatalf("residual %.3f%%: symmetric %v, want %v", pl.Residual, got, c.symmetric)
			}
			if c.symmetric && math.Abs(pl.Normal[c.axis]) < 0.99 {
				t.Errorf("normal %.3f, want along axis %d", pl.Normal, c.axis)
			}
		})
	}
}

// TestGeneratedPlanes: generated characters at several vertex counts —
// the biped and quadruped are built symmetric left to right, the snake
// waves in one plane (a mirror plane too); their planes must be found and
// be planes of their true skeletons (each true joint's mirror image on
// another true joint, within 1% of the diagonal: the plane is fitted to
// surface samples a third of a percent apart). The hand (five different
// fingers) has none.
func TestGeneratedPlanes(t *testing.T) {
	for _, k := range []character.Kind{character.Biped, character.Quadruped, character.Hand, character.Snake} {
		for _, nv := range []int{1500, 6000} {
			r, err := character.Generate(k, character.Options{Vertices: nv, Frames: 1})
			if err != nil {
				t.Fatal(err)
			}
			pl, _ := MirrorPlane(r.Mesh)
			sym := pl.Residual <= SymmetricResidual
			t.Logf("%s %d: residual %.3f%% normal %.3f", k, nv, pl.Residual, pl.Normal)
			want := k != character.Hand
			if sym != want {
				t.Errorf("%s %d: residual %.3f%%, symmetric %v, want %v", k, nv, pl.Residual, sym, want)
			}
			if !want {
				continue
			}
			truth := &static.Skeleton{Joints: metric.Heads(&r.Skeleton)}
			if res := MirrorResidual(truth, pl, mesh.Diagonal(r.Mesh.Verts)); res > 1 {
				t.Errorf("%s %d: the true joints' mirror residual about the plane found is %.3f%%, want ≤ 1", k, nv, res)
			}
		}
	}
}

func BenchmarkMirrorPlane(b *testing.B) {
	r, err := character.Generate(character.Quadruped, character.Options{Vertices: 6000, Frames: 1})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		MirrorPlane(r.Mesh)
	}
}
