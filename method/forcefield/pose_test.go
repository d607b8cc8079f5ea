package forcefield

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/format/libigl"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// TestPoseQuadrupeds: the pose test (metric.PoseError, as `bench
// --static` runs it) of the default skeleton with heat weights on the
// two quadrupeds, whose heads hang from necks without a waist: the Fox's
// glTF clips and the wolf's poses. With a joint at the back of the head
// (skeletonshape.HeadBase) the Fox measures 0.973 and the wolf 1.128;
// before, with one bone from the neck's base into the middle of the head,
// 1.148 and 1.567 (the Fox 0.997 before issue 18's shaping).
func TestPoseQuadrupeds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the shared rigs")
	}
	for _, c := range []struct {
		name  string
		bound float64
	}{{"Fox.glb", 0.997}, {"wolf", 1.2}} {
		t.Run(c.name, func(t *testing.T) {
			var m *mesh.Mesh
			var truth *rig.Rig
			var anim *seq.Sequence
			if c.name == "Fox.glb" {
				sc, err := format.ReadScene(shareddata.Path(t, filepath.Join("gltf", c.name)), format.SceneOptions{})
				if err != nil {
					t.Fatal(err)
				}
				m, truth, anim = sc.Mesh, sc.Rig, sc.Sequence
			} else {
				dir := shareddata.Path(t, filepath.Join("rigs", c.name))
				var err error
				if m, err = format.ReadMesh(filepath.Join(dir, c.name+".obj.gz")); err != nil {
					t.Fatal(err)
				}
				if truth, anim, err = libigl.ReadMotion(filepath.Join(dir, c.name+".tgf.gz"), m); err != nil {
					t.Fatal(err)
				}
			}
			if truth == nil || anim == nil {
				t.Fatalf("%s: no motion", c.name)
			}
			s, err := Skeleton(context.Background(), m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			skin, err := skinweights.Compute(m, s, skinweights.Heat, skinweights.Options{MaxInfluences: 4})
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Rig(m, skin)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := metric.PoseError(r, truth, anim)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d joints, pose RMSE%% %.3f", c.name, len(s.Joints), got)
			if got > c.bound {
				t.Errorf("pose RMSE%% %.3f, want at most %.3f", got, c.bound)
			}
		})
	}
}
