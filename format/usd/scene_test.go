package usd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/metric"
)

// TestReadScene reads the tube (two clips) through format.ReadScene from
// .usda, .usdc and .usdz: the sequence is the written rig's playback (RMSE%
// within the round trip's float32 bound), Clip and Frames pick what they
// name, and a rate other than the clips' own is refused.
func TestReadScene(t *testing.T) {
	r := testRigs(t)["tube"]
	dir := t.TempDir()
	for _, ext := range []string{".usda", ".usdc", ".usdz"} {
		p := filepath.Join(dir, "tube"+ext)
		if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		sc, err := format.ReadScene(p, format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(sc.Files) != 1 || sc.Files[0] != p || sc.Rig == nil || sc.Sequence == nil {
			t.Fatalf("%s: files %v, rig %v, sequence %v", ext, sc.Files, sc.Rig != nil, sc.Sequence != nil)
		}
		rep, err := metric.ComparePlayback(character.Sequence(r), sc.Sequence)
		if err != nil {
			t.Fatal(err)
		}
		if limit := 1e-5 * farthest(r) / sc.Sequence.Diagonal(); !(rep.RMSEPercent <= limit) {
			t.Errorf("%s: the sequence read is the rig's playback within RMSE%% %g, want ≤ %g", ext, rep.RMSEPercent, limit)
		}
		second := r.Clips[1].Name
		sc, err = format.ReadScene(p, format.SceneOptions{Clip: second, Frames: format.FrameRange{First: 2, Last: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if len(sc.Rig.Clips) != 1 || sc.Rig.Clips[0].Name != second || sc.Sequence.F() != 2 || sc.Rig.Clips[0].Frames != 2 {
			t.Fatalf("%s: clip %q frames 2:3 read as %d clips, %d frames", ext, second, len(sc.Rig.Clips), sc.Sequence.F())
		}
		_, err = format.ReadScene(p, format.SceneOptions{FPS: 60})
		if err == nil || !strings.Contains(err.Error(), "does not resample") {
			t.Errorf("%s: 60 fps asked of clips at %v and %v fps: %v", ext, r.Clips[0].FPS, r.Clips[1].FPS, err)
		}
		_, err = format.ReadScene(p, format.SceneOptions{Clip: "run"})
		if err == nil || !strings.Contains(err.Error(), `no clip "run"`) {
			t.Errorf("%s: a missing clip: %v", ext, err)
		}
	}
}
