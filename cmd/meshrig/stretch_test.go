package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// rigReport runs meshrig rig with args and a JSON report, and returns the
// report's RMSE% and the rig written.
func rigRMSE(t *testing.T, args ...string) (float64, string) {
	t.Helper()
	dir := t.TempDir()
	out, rep := filepath.Join(dir, "out.glb"), filepath.Join(dir, "r.json")
	if text, err := run(t, append([]string{"rig", "-o", out, "--report", rep}, args...)...); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	var r struct {
		RMSE float64 `json:"rmse_percent"`
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r.RMSE, out
}

// TestStretchSquashingTube: a tube whose middle bone squashes and
// stretches along its axis (a scale track): --stretch fits it no worse
// than rotation-only bones, and the .glb written, read back, replays it
// as the report says. (From ledeng's 3-bone skeleton, whose joints are
// not the tube's, it gains little: 1.59 → 1.56 RMSE%.)
func TestStretchSquashingTube(t *testing.T) {
	r := testrig.SquashTube(t, 24, linalg.Vec3{}, testrig.AlongBone)
	in := filepath.Join(t.TempDir(), "squash.glb")
	if err := format.WriteFile(in, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	rigid, _ := rigRMSE(t, in, "--bones", "3")
	stretch, out := rigRMSE(t, in, "--bones", "3", "--stretch")
	t.Logf("RMSE%%: rotation-only %.4f, --stretch %.4f", rigid, stretch)
	if !(stretch <= rigid) {
		t.Errorf("RMSE%%: --stretch %.4f above rotation-only %.4f", stretch, rigid)
	}
	// What was written is what was measured: read back, it has scale tracks.
	want, err := format.ReadScene(in, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back, backRMSE := replay(t, out, want.Sequence)
	if !back.HasScale() {
		t.Error("the --stretch rig read back has no scale tracks")
	}
	if text, err := run(t, "info", out); err != nil || !strings.Contains(text, "with scale tracks") {
		t.Errorf("info on the --stretch rig does not say it scales: %v\n%s", err, text)
	}
	if d := math.Abs(backRMSE - stretch); d > 1e-3 {
		t.Errorf("the .glb read back replays at RMSE%% %.5f, the rig reported %.5f", backRMSE, stretch)
	}
	// COLLADA holds the tracks in the joints' matrices: read back, the same.
	dae := filepath.Join(t.TempDir(), "x.dae")
	if _, err := run(t, "rig", in, "--bones", "3", "--stretch", "-o", dae); err != nil {
		t.Fatal(err)
	}
	dsc, err := format.ReadScene(dae, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !dsc.Rig.HasScale() {
		t.Error("the --stretch rig read back from COLLADA has no scale tracks")
	}
	// Refitted (rig --rig, meshrig refit), the rig keeps them and fits no
	// worse.
	for _, args := range [][]string{{"rig", in, "--rig", out}, {"refit", out, in}} {
		path := filepath.Join(t.TempDir(), "refit.glb")
		if text, err := run(t, append(args, "-o", path)...); err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		r, rmse := replay(t, path, want.Sequence)
		if !r.HasScale() || rmse > stretch+1e-3 {
			t.Errorf("%s: scale tracks %v, RMSE%% %.5f (the --stretch rig %.5f)", args[0], r.HasScale(), rmse, stretch)
		}
	}
	// FBX (Lcl Scaling curves) and USD (half3 scales) keep them too.
	for _, ext := range []string{".fbx", ".usda"} {
		path := filepath.Join(t.TempDir(), "x"+ext)
		if _, err := run(t, "rig", in, "--bones", "3", "--stretch", "-o", path); err != nil {
			t.Fatal(err)
		}
		r, rmse := replay(t, path, want.Sequence)
		if !r.HasScale() {
			t.Errorf("the --stretch rig read back from %s has no scale tracks", ext)
			continue
		}
		if d := math.Abs(rmse - stretch); d > 0.02 {
			t.Errorf("the %s read back replays at RMSE%% %.5f, the rig reported %.5f", ext, rmse, stretch)
		}
	}
}

// replay reads the rig written at path and measures its RMSE% against
// want; a file with no rig fails t.
func replay(t *testing.T, path string, want *seq.Sequence) (*rig.Rig, float64) {
	t.Helper()
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig == nil {
		t.Fatalf("%s: no rig read back", path)
	}
	rep, err := metric.Compare(want, sc.Rig)
	if err != nil {
		t.Fatal(err)
	}
	return sc.Rig, rep.RMSEPercent
}

// TestStretchCow: issue 16's elastic target, the cow at 11 bones with
// --stretch at or under Dem Bones' 1.176 RMSE% (its free rigid bones);
// rotation-only bones give 1.41, --stretch 0.82, and --stretch --fast
// (weights kept, fewer steps per frame) 0.91: between the two. About 5
// CPU-seconds.
func TestStretchCow(t *testing.T) {
	if testing.Short() {
		t.Skip("the cow at 11 bones with --stretch: about 5 CPU-seconds")
	}
	cow := shareddata.Path(t, "sequences/cow")
	got, _ := rigRMSE(t, cow, "--bones", "11", "--stretch")
	fast, _ := rigRMSE(t, cow, "--bones", "11", "--stretch", "--fast")
	t.Logf("cow, 11 bones: --stretch RMSE%% %.4f, with --fast %.4f (Dem Bones 1.176)", got, fast)
	if got > 1.176 || fast > 1.176 {
		t.Errorf("RMSE%% %.4f, with --fast %.4f: want ≤ 1.176 (Dem Bones at 11 bones)", got, fast)
	}
	if !(fast > got) {
		t.Errorf("--fast fitted as closely as the default (%.4f, %.4f): not the faster fit", fast, got)
	}
}
