package aguiar

import (
	"context"
	"testing"
	"time"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/rigcheck"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// TestHorseGallop holds the accuracy target on the paper's horse:
// ACCU under 0.6% (the paper reports 0.56%).
func TestHorseGallop(t *testing.T) {
	in, err := format.Load([]string{shareddata.Path(t, "sequences/horse-gallop")}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := Rig(context.Background(), in.Sequence, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, in.Sequence, r)
	t.Logf("horse-gallop: %d bones, %.1f s, RMSE%% %.3f, ACCU%% %.3f", rep.Bones, time.Since(start).Seconds(), rep.RMSEPercent, rep.ACCUPercent)
	if rep.ACCUPercent >= 0.6 {
		t.Errorf("ACCU%% %.3f", rep.ACCUPercent)
	}
}

// TestSkinnedCharacters rigs the sampled animations of the skinned glTF
// characters and measures joint error against each file's own rig. The
// issue's target is ≤ 3. Fox has the least margin (2.86–3.17 over
// k-means seeds 1–5 when its Run clip stopped short of its last key; 2.83
// since: its hind legs' lower bones are not always parted).
// RiggedSimple, whose skin blends along its whole length, holds because
// the segmentation is chosen among variation levels (at 99.9% alone it
// winds 9 joints along the cylinder: 3.51).
func TestSkinnedCharacters(t *testing.T) {
	rigf := func(s *seq.Sequence, notes method.Notes) (*rig.Rig, error) {
		return Rig(context.Background(), s, Options{Notes: notes})
	}
	for _, c := range []rigcheck.Skinned{
		{Name: "CesiumMan", Bones: [2]int{15, 32}, RMSE: 0.2, ACCU: 0.6, JointError: 3},  // truth 19: 25 bones, RMSE% 0.15, JE 1.79
		{Name: "Fox", Bones: [2]int{16, 32}, RMSE: 0.6, ACCU: 0.6, JointError: 3},        // truth 22: 20, 0.37, 2.83
		{Name: "RiggedSimple", Bones: [2]int{4, 8}, RMSE: 0.3, ACCU: 0.3, JointError: 3}, // truth 4: 6, 0.15, 2.77
	} {
		t.Run(c.Name, func(t *testing.T) { c.Run(t, rigf) })
	}
}
