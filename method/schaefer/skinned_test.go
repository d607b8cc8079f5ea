package schaefer

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
// the weld they gave 40, 162 and 35 bones (joint error% 3.86, 12.2, 10.9).
// It bounds bones, RMSE% and joint error% against each file's deforming
// joints. At the default tolerance CesiumMan's feet and hands stay with
// shins and forearms (a walk hardly bends ankles and wrists): 12 bones,
// joint error% 4.07 (at --tolerance 0.5: 13 bones, 2.66). RiggedSimple's
// cylinder bends smoothly under 4 joints blended over its whole length,
// so the clusters spread along it (11 bones, 5.99).
func TestSkinnedCharacters(t *testing.T) {
	for _, tc := range []struct {
		name          string
		bones         [2]int
		rmse, jointEr float64
	}{
		{"Fox", [2]int{18, 30}, 0.25, 3},          // truth 22: 25 bones, RMSE% 0.18, JE 2.69
		{"CesiumMan", [2]int{10, 22}, 0.45, 4.5},  // truth 19: 12, 0.36, 4.07
		{"RiggedSimple", [2]int{4, 14}, 0.3, 6.5}, // truth 4: 11, 0.23, 5.99
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
			rep := check(t, in.Sequence, r)
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
