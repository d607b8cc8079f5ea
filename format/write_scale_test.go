package format_test

import (
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/collada"
	_ "github.com/meshrig/meshrig/format/fbx"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/usd"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

// TestWritersKeepScaleTracks: a rig with scale tracks (--stretch) is
// written with them by every registered writer, never without: read
// back, it has scale tracks and replays the rig written within RMSE%
// 0.02: USD's half3 scales round the most (a half's step is 1/1024 from
// 1 to 2; 0.008 on this tube, whose joint 1 carries half its length),
// the others hold float32 (about 2e-6).
func TestWritersKeepScaleTracks(t *testing.T) {
	r := testrig.Tube(t, 12, linalg.Vec3{})
	c := &r.Clips[0]
	nj := r.Skeleton.Len()
	c.Scale = make([]linalg.Vec3, c.Frames*nj)
	for k := range c.Scale {
		c.Scale[k] = linalg.Vec3{1, 1, 1}
		if k%nj == 1 {
			c.Scale[k] = linalg.Vec3{1 + 0.02*float64(k/nj), 0.9, 1}
		}
	}
	want := testrig.Play(t, r)
	writers := 0
	for _, f := range format.Formats() {
		if f.Write == nil {
			continue
		}
		writers++
		path := filepath.Join(t.TempDir(), "tube"+f.Exts[0])
		if err := format.WriteFile(path, r, format.WriteOptions{}); err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		if f.Scene == nil {
			continue
		}
		sc, err := format.ReadScene(path, format.SceneOptions{})
		if err != nil {
			t.Errorf("%s: reading back: %v", f.Name, err)
			continue
		}
		if sc.Rig == nil || !sc.Rig.HasScale() {
			t.Errorf("%s: read back without scale tracks", f.Name)
			continue
		}
		rep, err := metric.Compare(want, sc.Rig)
		if err != nil {
			t.Fatal(err)
		}
		if !(rep.RMSEPercent <= 0.02) {
			t.Errorf("%s: read back, replays at RMSE%% %g", f.Name, rep.RMSEPercent)
		}
		t.Logf("%s: read back at RMSE%% %.2g", f.Name, rep.RMSEPercent)
	}
	if writers < 6 {
		t.Errorf("%d writers registered, want glTF, COLLADA, FBX and USD's three", writers)
	}
}
