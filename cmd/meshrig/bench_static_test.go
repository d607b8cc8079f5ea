package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// TestPoseError: the pose test on a generated biped with its true rig.
// The truth replays its own motion exactly; our contraction skeleton with
// heat weights, driven by the matched true joints, follows it closely;
// and the same skeleton with every vertex bound to one joint does far
// worse, so the measure sees the weights.
func TestPoseError(t *testing.T) {
	dir := gen(t, "biped")
	c := staticCase{name: "biped", path: filepath.Join(dir, "rest.obj"), truth: filepath.Join(dir, "truth.glb")}
	m, err := readStaticMesh(c.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	motion, err := loadPoseTruth(c, m)
	if err != nil || motion == nil {
		t.Fatalf("no motion: %v", err)
	}
	g := &globals{quiet: true}
	o := &skeletonizeOptions{method: "contraction", weights: "heat", maxInf: 4}
	r, _, err := skeletonizeMesh(context.Background(), g, o, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, own, err := metric.PoseError(r, motion.rig, motion.anim)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pose RMSE%% %.3f, the truth's own %.2g", got, own)
	if own > 1e-3 {
		t.Errorf("the true rig replays its motion with RMSE%% %g, want ~0", own)
	}
	if got > 2 {
		t.Errorf("pose RMSE%% %.3f, want under 2", got)
	}
	rigid := *r
	rigid.Skin = make(rig.Skin, len(r.Skin))
	for i := range rigid.Skin {
		rigid.Skin[i] = rig.Influence{Weight: [4]float64{1}}
	}
	bad, _, err := metric.PoseError(&rigid, motion.rig, motion.anim)
	if err != nil {
		t.Fatal(err)
	}
	if bad < 3*got {
		t.Errorf("one joint for all vertices: RMSE%% %.3f, want far above the heat weights' %.3f", bad, got)
	}
}

// TestBenchStatic: bench --static on a mesh given by path prints a row
// per method under the header, and the JSON rows carry the same numbers.
func TestBenchStatic(t *testing.T) {
	dir := gen(t, "snake")
	js := filepath.Join(t.TempDir(), "rows.json")
	text, err := run(t, "bench", "--static", filepath.Join(dir, "rest.obj"), "--json", js)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"joint error%", "pose RMSE%", "truth pose%", "forcefield", "contraction"} {
		if !strings.Contains(text, want) {
			t.Errorf("bench --static output lacks %q:\n%s", want, text)
		}
	}
	var rows []staticBenchRow
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(staticMethods) {
		t.Fatalf("%d rows, want one per method", len(rows))
	}
	for _, r := range rows {
		if r.Mesh != "rest" || r.Joints < 2 || r.Error != "" || r.PoseRMSEPercent != nil {
			t.Errorf("row %+v", r)
		}
	}
}
