package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/metric"
)

// TestColladaCommands: a rig meshrig writes as COLLADA 1.4.1 or 1.5 is
// read by every command — info describes it and its rig, render draws a
// frame of it, eval measures it against the input with the error rig
// reported, and rig takes its animation as input — and a broken .dae is
// refused naming the file and line.
func TestColladaCommands(t *testing.T) {
	dir := gen(t, "snake")
	for _, version := range []string{"1.4.1", "1.5"} {
		t.Run(version, func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "snake.dae")
			report := filepath.Join(tmp, "r.json")
			if _, err := run(t, "rig", dir, "-o", out, "--collada", version, "--report", report); err != nil {
				t.Fatal(err)
			}
			var rep map[string]any
			b, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			text, err := run(t, "info", out)
			if err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`rig\s+\d+ joints, 1 clip`).MatchString(text) || !regexp.MustCompile(`frames\s+12\n`).MatchString(text) {
				t.Fatalf("info does not describe a rig of 1 clip and 12 frames:\n%s", text)
			}
			pic := filepath.Join(tmp, "snake.png")
			if _, err := run(t, "render", out, "-o", pic, "--frame", "5"); err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(pic); err != nil || st.Size() < 1000 {
				t.Errorf("render wrote %v, %v", st, err)
			}
			js, err := run(t, "eval", out, dir, "--json")
			if err != nil {
				t.Fatal(err)
			}
			var ev metric.Report
			if err := json.Unmarshal([]byte(js), &ev); err != nil {
				t.Fatalf("%v in %q", err, js)
			}
			if d := ev.RMSEPercent - rep["rmse_percent"].(float64); d > 1e-4 || d < -1e-4 {
				t.Errorf("eval of the .dae: RMSE%% %.6f; rig reported %.6f", ev.RMSEPercent, rep["rmse_percent"])
			}
			again := filepath.Join(tmp, "again.glb")
			if _, err := run(t, "rig", out, "-o", again); err != nil {
				t.Fatalf("rig with the .dae as input: %v", err)
			}
		})
	}
	t.Run("broken", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.dae")
		doc := "<?xml version=\"1.0\"?>\n<COLLADA version=\"1.4.1\">\n<library_geometries>\n<geometry id=\"g\"/>\n</library_geometries>\n</COLLADA>\n"
		if err := os.WriteFile(bad, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"info", bad}, {"render", bad, "-o", filepath.Join(t.TempDir(), "x.png")}, {"eval", bad, bad}} {
			_, err := run(t, cmd...)
			if err == nil || !strings.Contains(err.Error(), bad+":2: <COLLADA>: no <scene><instance_visual_scene>, and 0 visual scenes") {
				t.Errorf("%s: err = %v, want one naming %s, line 2 and what is missing", cmd[0], err, bad)
			}
		}
	})
}
