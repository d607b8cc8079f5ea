package ledeng

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/metric"
)

// TestSkinnedCharacters rigs the sampled animations of the skinned glTF
// characters, whose meshes are cut along seams (Fox is a triangle soup,
// CesiumMan has 138 pieces, RiggedSimple duplicated seam vertices): before
// the weld they gave 467, 20 and 169 bones. It bounds bones, RMSE% and
// joint error% against each file's deforming joints. RiggedSimple's
// cylinder bends smoothly under 4 joints, blended over its whole length:
// the method keeps the bones its accuracy needs (17), spread along the
// cylinder, so its joint error stays near 6.
func TestSkinnedCharacters(t *testing.T) {
	for _, tc := range []struct {
		name          string
		bones         [2]int
		rmse, jointEr float64
	}{
		{"Fox", [2]int{18, 30}, 0.2, 3.2},          // truth 22: 25 bones, RMSE% 0.13, JE 2.98
		{"CesiumMan", [2]int{14, 24}, 0.2, 2.6},    // truth 19: 16, 0.13, 2.15
		{"RiggedSimple", [2]int{4, 20}, 0.25, 6.5}, // truth 4: 17, 0.19, 6.17
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := format.Load([]string{shareddata.Path(t, filepath.Join("gltf", tc.name+".glb"))}, format.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Rig(context.Background(), in.Sequence, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rep := checkRig(t, in.Sequence, r)
			truth := metric.DeformingHeads(in.Truth)
			je := metric.JointError(metric.Heads(&r.Skeleton), truth, rep.Diagonal)
			t.Logf("%s: %d bones (truth %d), RMSE%% %.3f, joint error%% %.2f", tc.name, rep.Bones, len(truth), rep.RMSEPercent, je)
			if rep.Bones < tc.bones[0] || rep.Bones > tc.bones[1] {
				t.Errorf("%d bones, want %d–%d", rep.Bones, tc.bones[0], tc.bones[1])
			}
			if rep.RMSEPercent > tc.rmse {
				t.Errorf("RMSE%% %.3f above %.2f", rep.RMSEPercent, tc.rmse)
			}
			if je > tc.jointEr {
				t.Errorf("joint error%% %.2f above %.1f", je, tc.jointEr)
			}
		})
	}
}
