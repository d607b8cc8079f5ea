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
	"github.com/meshrig/meshrig/seq"
)

// evalJSON runs eval --json and returns the rig's RMSE% and the file's
// own playback RMSE% (NaN when the report has none).
func evalJSON(t *testing.T, args ...string) (rig, playback float64) {
	t.Helper()
	text, err := run(t, append([]string{"eval", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return rmses(t, []byte(text))
}

// rmses reads the rig's and the playback's RMSE% from a JSON report.
func rmses(t *testing.T, text []byte) (rig, playback float64) {
	t.Helper()
	var rep struct {
		RMSE     float64 `json:"rmse_percent"`
		Playback *struct {
			RMSE float64 `json:"rmse_percent"`
		} `json:"playback"`
	}
	if err := json.Unmarshal(text, &rep); err != nil {
		t.Fatalf("%v:\n%s", err, text)
	}
	playback = math.NaN()
	if rep.Playback != nil {
		playback = rep.Playback.RMSE
	}
	return rep.RMSE, playback
}

// TestFBXCommands: info, eval and rig take Dem Bones' FBX files.
func TestFBXCommands(t *testing.T) {
	geom := shareddata.Path(t, "dembones/Bone_Geom.fbx")
	d20 := shareddata.Path(t, "dembones/Decomposition_20.fbx")
	text, err := run(t, "info", geom)
	if err != nil || !strings.Contains(text, "vertices    754") || !strings.Contains(text, "frames      0 (no animation)") {
		t.Errorf("info Bone_Geom.fbx: %v\n%s", err, text)
	}
	text, err = run(t, "info", d20)
	if err != nil || !strings.Contains(text, "rig         21 joints") || !strings.Contains(text, "frames      400") {
		t.Errorf("info Decomposition_20.fbx: %v\n%s", err, text)
	}
	// Against its own playback: the file plays itself exactly; the rig
	// read from it (four of up to eight influences) does not.
	report := filepath.Join(t.TempDir(), "e.json")
	text, err = run(t, "eval", d20, d20, "--report", report)
	if err != nil || !strings.Contains(text, "file playback") {
		t.Errorf("eval text does not show the file's playback: %v\n%s", err, text)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	rig, playback := rmses(t, b)
	if playback != 0 || !(rig > 0.01 && rig < 0.2) {
		t.Errorf("eval Decomposition_20.fbx against itself: rig RMSE%% %v, playback %v", rig, playback)
	}
	// An FBX animation rigged into an FBX rig, which eval reads back.
	d05 := shareddata.Path(t, "dembones/Decomposition_05.fbx")
	out := filepath.Join(t.TempDir(), "d05.fbx")
	if text, err := run(t, "rig", d05, "--frames", "1:12", "-o", out); err != nil {
		t.Fatalf("rig Decomposition_05.fbx -o d05.fbx: %v\n%s", err, text)
	}
	rig, playback = evalJSON(t, out, d05, "--frames", "1:12")
	if !(rig < 1) || math.Abs(playback-rig) > 1e-3 {
		t.Errorf("eval of our FBX rig: RMSE%% %v, its playback %v", rig, playback)
	}
}

// TestFBXAgainstAlembic: Dem Bones' results measured on the animation
// they were solved from, Bone_Anim.abc, as Dem Bones plays them (every
// influence): RMSE% 0.2238 (20 bones) and 0.6080 (5 bones), an
// independent check's figures; and Bone_Geom.fbx is the cache's rest
// mesh (same polygons, --rest).
func TestFBXAgainstAlembic(t *testing.T) {
	if _, _, err := format.ByPath("x.abc"); err != nil {
		t.Skip("no Alembic reader registered (format/abc); skipping")
	}
	abc := shareddata.Path(t, "dembones/Bone_Anim.abc")
	for _, tc := range []struct {
		file string
		want float64
	}{{"Decomposition_20.fbx", 0.2238}, {"Decomposition_05.fbx", 0.6080}} {
		rig, playback := evalJSON(t, shareddata.Path(t, "dembones/"+tc.file), abc)
		if math.Abs(playback-tc.want) > 1e-3 {
			t.Errorf("%s: playback RMSE%% %.4f, want %.4f", tc.file, playback, tc.want)
		}
		if rig < playback-1e-9 {
			t.Errorf("%s: the four-influence rig (RMSE%% %.4f) beats the file's playback (%.4f)", tc.file, rig, playback)
		}
		t.Logf("%s: playback RMSE%% %.4f, rig %.4f", tc.file, playback, rig)
	}
	// Optimized.fbx keeps Bone_All's clip beside Dem Bones' optimised one:
	// --rig-clip measures the latter, and the optimisation lowered the
	// error.
	before, _ := evalJSON(t, shareddata.Path(t, "dembones/Bone_All.fbx"), abc)
	after, _ := evalJSON(t, shareddata.Path(t, "dembones/Optimized.fbx"), abc, "--rig-clip", "demBones")
	if !(after < before) {
		t.Errorf("Optimized.fbx (demBones) RMSE%% %.4f, not below Bone_All.fbx's %.4f", after, before)
	}
	t.Logf("Bone_All.fbx RMSE%% %.4f, Optimized.fbx (demBones) %.4f", before, after)
	if _, err := run(t, "eval", shareddata.Path(t, "dembones/Optimized.fbx"), abc, "--rig-clip", "nope"); err == nil {
		t.Error("--rig-clip of a clip the file lacks was taken")
	}
	geom := shareddata.Path(t, "dembones/Bone_Geom.fbx")
	rest, err := format.ReadMesh(geom)
	if err != nil {
		t.Fatal(err)
	}
	in, err := format.Load([]string{abc}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := seq.SameFaces(rest, in.Sequence.Rest); err != nil {
		t.Errorf("Bone_Geom.fbx and Bone_Anim.abc: %v", err)
	}
	text, err := run(t, "info", abc, "--rest", geom)
	if err != nil || !strings.Contains(text, "frames      400") {
		t.Errorf("info Bone_Anim.abc --rest Bone_Geom.fbx: %v\n%s", err, text)
	}
	// The cache rigged on the FBX's rest mesh keeps Maya's UV set, normals
	// and material in the rig written.
	out := filepath.Join(t.TempDir(), "bone.glb")
	if text, err := run(t, "rig", abc, "--rest", geom, "--frames", "1:40", "--bones", "5", "--skeleton", "none", "-o", out); err != nil {
		t.Fatalf("rig Bone_Anim.abc --rest Bone_Geom.fbx: %v\n%s", err, text)
	}
	text, err = run(t, "info", out)
	if err != nil || !strings.Contains(text, "surface     1 UV set, normals, 1 material") {
		t.Errorf("the rig lost the FBX's surface: %v\n%s", err, text)
	}
}
