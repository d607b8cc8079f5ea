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
)

// run executes meshrig with args and returns its output and error.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append(args, "--quiet"))
	err := root.Execute()
	return out.String(), err
}

// gen writes a small generated character to a temp folder.
func gen(t *testing.T, kind string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), kind)
	if _, err := run(t, "gen", kind, "-o", dir, "--frames", "12", "--vertices", "1500"); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGenRigEvalReport(t *testing.T) {
	dir := gen(t, "snake")
	out := filepath.Join(t.TempDir(), "snake.glb")
	report := filepath.Join(t.TempDir(), "r.json")
	text, err := run(t, "rig", dir, "-o", out, "--report", report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"method", "bones", "seconds", "RMSE%", "Max%", "normal RMS"} {
		if !strings.Contains(text, want) {
			t.Errorf("rig output lacks %q:\n%s", want, text)
		}
	}
	var rep map[string]any
	b, _ := os.ReadFile(report)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"vertices", "frames", "bones", "rmse_percent", "max_percent", "normal_rms", "method", "seconds"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	// eval of the written file agrees with the report.
	js, err := run(t, "eval", out, dir, "--json", "--truth", filepath.Join(dir, "truth.glb"))
	if err != nil {
		t.Fatal(err)
	}
	var ev metric.Report
	if err := json.Unmarshal([]byte(js), &ev); err != nil {
		t.Fatalf("%v in %q", err, js)
	}
	if ev.JointErrorPercent == nil {
		t.Error("no joint error with --truth")
	}
	if d := ev.RMSEPercent - rep["rmse_percent"].(float64); d > 1e-3 || d < -1e-3 {
		t.Errorf("eval RMSE%% %.5f, rig reported %.5f", ev.RMSEPercent, rep["rmse_percent"])
	}
	pic := filepath.Join(t.TempDir(), "s.png")
	if _, err := run(t, "render", out, "-o", pic, "--frame", "3"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(pic); err != nil || st.Size() < 1000 {
		t.Errorf("render wrote %v, %v", st, err)
	}
}

func TestBadInputsFailCleanly(t *testing.T) {
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty")
	os.Mkdir(empty, 0o755)
	nan := filepath.Join(tmp, "nan")
	os.Mkdir(nan, 0o755)
	os.WriteFile(filepath.Join(nan, "f1.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	os.WriteFile(filepath.Join(nan, "f2.obj"), []byte("v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	index := filepath.Join(tmp, "index")
	os.Mkdir(index, 0o755)
	os.WriteFile(filepath.Join(index, "f1.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n"), 0o644)
	count := filepath.Join(tmp, "count")
	os.Mkdir(count, 0o755)
	os.WriteFile(filepath.Join(count, "f1.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	os.WriteFile(filepath.Join(count, "f2.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\n"), 0o644)
	trunc := filepath.Join(tmp, "trunc.glb")
	os.WriteFile(trunc, []byte("glTF\x02\x00\x00\x00\xff\xff\x00\x00"), 0o644)
	outside := filepath.Join(tmp, "sub", "outside.gltf")
	os.MkdirAll(filepath.Dir(outside), 0o755)
	os.WriteFile(outside, []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"../secret.bin","byteLength":4}]}`), 0o644)
	os.WriteFile(filepath.Join(tmp, "secret.bin"), []byte("abcd"), 0o644)
	for _, tc := range []struct {
		name, input, want string
	}{
		{"empty folder", empty, "no mesh files"},
		{"NaN", nan, "f2.obj:2"},
		{"index out of range", index, "out of range"},
		{"vertex counts", count, "4 vertices"},
		{"truncated GLB", trunc, "truncated"},
		{"uri outside folder", outside, "outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(tmp, strings.ReplaceAll(tc.name, " ", "-")+".glb")
			_, err := run(t, "rig", tc.input, "-o", out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
			if strings.Contains(oneLine(err), "\n") {
				t.Error("error spans lines")
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("an output was written: %v", err)
			}
		})
	}
}

func TestNeverOverwritesInput(t *testing.T) {
	dir := gen(t, "snake")
	truth := filepath.Join(dir, "truth.glb")
	before, _ := os.ReadFile(truth)
	_, err := run(t, "rig", truth, "-o", truth)
	if !errors.Is(err, safefile.ErrIsInput) {
		t.Fatalf("err = %v, want ErrIsInput", err)
	}
	after, _ := os.ReadFile(truth)
	if !bytes.Equal(before, after) {
		t.Fatal("input changed")
	}
}

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	text, err := run(t, "demo", "-o", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "joint error%") || !strings.Contains(text, "RMSE%") {
		t.Errorf("demo report:\n%s", text)
	}
	sc, err := format.ReadScene(filepath.Join(dir, "demo.glb"), format.SceneOptions{})
	if err != nil || sc.Rig == nil {
		t.Fatalf("demo.glb: %v", err)
	}
	if st, err := os.Stat(filepath.Join(dir, "demo.png")); err != nil || st.Size() < 1000 {
		t.Errorf("demo.png: %v", err)
	}
}
