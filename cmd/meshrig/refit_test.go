package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/rig/edit"
)

// editedRig writes the generated character's true rig with joint name
// removed (rig/edit), and returns its path and the rig as read back (the
// glTF writer may list joints in another order).
func editedRig(t *testing.T, dir, name string) (string, *rig.Rig) {
	t.Helper()
	sc, err := format.ReadScene(filepath.Join(dir, "truth.glb"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	j := -1
	for k, jt := range sc.Rig.Skeleton.Joints {
		if jt.Name == name {
			j = k
		}
	}
	ed, _, err := edit.RemoveJoint(sc.Rig, rig.JointID(j))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "edited.glb")
	if err := format.WriteFile(p, ed, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := format.ReadScene(p, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p, back.Rig
}

// TestRefitEditedRig: the biped's rig without its right knee, refitted to
// its animation, keeps the edited skeleton (names, order) and replays
// the animation far better than the edited rig did (joint heads bit for
// bit through the file); the report agrees
// with eval of the written file.
func TestRefitEditedRig(t *testing.T) {
	dir := gen(t, "biped")
	edited, ed := editedRig(t, dir, "knee_r")
	js, err := run(t, "eval", edited, dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var before metric.Report
	if err := json.Unmarshal([]byte(js), &before); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "refit.glb")
	report := filepath.Join(t.TempDir(), "refit.json")
	text, err := run(t, "refit", edited, dir, "-o", out, "--report", report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"method        refit", "bones", "RMSE%", "Max%", "normal RMS"} {
		if !strings.Contains(text, want) {
			t.Errorf("refit output lacks %q:\n%s", want, text)
		}
	}
	var rep metric.Report
	b, _ := os.ReadFile(report)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	t.Logf("knee_r removed: RMSE%% %.4f as edited → %.4f refitted", before.RMSEPercent, rep.RMSEPercent)
	if rep.RMSEPercent > before.RMSEPercent/4 || rep.RMSEPercent > 0.4 {
		t.Errorf("RMSE%% %.4f after refit, %.4f before: want ≤ a quarter of it and ≤ 0.4", rep.RMSEPercent, before.RMSEPercent)
	}
	sc, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig.Skeleton.Len() != ed.Skeleton.Len() {
		t.Fatalf("%d joints written, the edited rig has %d", sc.Rig.Skeleton.Len(), ed.Skeleton.Len())
	}
	for j, jt := range sc.Rig.Skeleton.Joints {
		if want := ed.Skeleton.Joints[j]; jt != want { // heads too, bit for bit
			t.Errorf("joint %d: %+v written, %+v edited", j, jt, want)
		}
	}
	js, err = run(t, "eval", out, dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var ev metric.Report
	if err := json.Unmarshal([]byte(js), &ev); err != nil {
		t.Fatal(err)
	}
	if d := ev.RMSEPercent - rep.RMSEPercent; d > 1e-3 || d < -1e-3 {
		t.Errorf("eval RMSE%% %.5f, refit reported %.5f", ev.RMSEPercent, rep.RMSEPercent)
	}
}

// TestRefitNeverOverwritesInput: -o or --report naming the rig or a frame
// read is refused before any work, and the file is unchanged.
func TestRefitNeverOverwritesInput(t *testing.T) {
	dir := gen(t, "snake")
	truth := filepath.Join(dir, "truth.glb")
	frame := filepath.Join(dir, "frame-0001.obj")
	before, _ := os.ReadFile(truth)
	for _, args := range [][]string{
		{"refit", truth, dir, "-o", truth},
		{"refit", truth, dir, "-o", filepath.Join(t.TempDir(), "x.glb"), "--report", frame},
	} {
		_, err := run(t, args...)
		if !errors.Is(err, safefile.ErrIsInput) {
			t.Errorf("%v: err = %v, want ErrIsInput", args, err)
		}
	}
	if after, _ := os.ReadFile(truth); !bytes.Equal(before, after) {
		t.Fatal("input changed")
	}
}

// TestRefitStatic: with no INPUT a static rig's weights are bound again
// (joints kept); a rig with clips and no INPUT is refused.
func TestRefitStatic(t *testing.T) {
	dir := gen(t, "snake")
	sc, err := format.ReadScene(filepath.Join(dir, "truth.glb"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	still := *sc.Rig
	still.Clips = nil
	in := filepath.Join(t.TempDir(), "still.glb")
	if err := format.WriteFile(in, &still, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rebound.dae")
	text, err := run(t, "refit", in, "-o", out, "--weights", "rigid")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "weights       rigid") {
		t.Errorf("output:\n%s", text)
	}
	got, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rig.Skeleton.Len() != still.Skeleton.Len() {
		t.Errorf("%d joints, want %d", got.Rig.Skeleton.Len(), still.Skeleton.Len())
	}
	for i, inf := range got.Rig.Skin {
		if inf.Weight[0] < 1-1e-6 {
			t.Fatalf("vertex %d: %v, not rigid", i, inf.Weight)
		}
	}
	_, err = run(t, "refit", filepath.Join(dir, "truth.glb"), "-o", filepath.Join(t.TempDir(), "y.glb"))
	if err == nil || !strings.Contains(err.Error(), "1 clip") {
		t.Errorf("a rig with clips and no INPUT: err = %v", err)
	}
}

func TestRefitBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--solve", "bones"}, "--solve"},
		{[]string{"--weights", "paint"}, "--weights"},
		{[]string{"--max-influences", "5"}, "--max-influences"},
		{[]string{"--iterations", "0"}, "--iterations"},
	} {
		// The rig does not exist: flags are checked before any file is read.
		args := append([]string{"refit", "missing.glb", "missing/", "-o", filepath.Join(t.TempDir(), "o.glb")}, tc.args...)
		_, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want one naming %s", tc.args, err, tc.want)
		}
	}
}
