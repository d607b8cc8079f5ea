package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// TestSkeletonizeBadInputs: bad flags and inputs fail with a one-line
// message naming the problem, and nothing is written.
func TestSkeletonizeBadInputs(t *testing.T) {
	dir := gen(t, "snake")
	rest := filepath.Join(dir, "rest.obj")
	bad := filepath.Join(t.TempDir(), "bad.obj")
	if err := os.WriteFile(bad, []byte("v 0 0 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.glb")
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"weights":              {[]string{rest, "--weights", "bones"}, "unknown weight scheme"},
		"influences":           {[]string{rest, "--max-influences", "5"}, "--max-influences"},
		"method":               {[]string{rest, "--method", "medial"}, "unknown"},
		"voxel":                {[]string{rest, "--voxel-size", "2"}, "--voxel-size"},
		"joints":               {[]string{rest, "--joints", "-3"}, "--joints"},
		"missing":              {[]string{filepath.Join(dir, "none.obj")}, "none.obj"},
		"broken":               {[]string{bad}, "bad.obj"},
		"output":               {[]string{rest, "-o", filepath.Join(t.TempDir(), "x.txt")}, "x.txt"},
		"truth":                {[]string{rest, "--truth", filepath.Join(dir, "none.tgf")}, "none.tgf"},
		"template":             {[]string{rest, "--template", "octopus"}, "--template"},
		"template+joints":      {[]string{rest, "--template", "biped", "--joints", "20"}, "--joints does not apply"},
		"template+no-symmetry": {[]string{rest, "--template", "biped", "--no-symmetry"}, "--no-symmetry does not apply"},
		"template misfit":      {[]string{rest, "--template", "biped"}, "does not fit"},
	} {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"skeletonize", "-o", out}, c.args...)
			_, err := run(t, args...)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(oneLine(err), "\n") {
				t.Fatalf("error %v, want one naming %q", err, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatal("output written")
			}
		})
	}
}

// TestSkeletonize rigs a generated character's rest mesh with each
// method and weight scheme, writes glTF and both Collada versions, and
// checks the report against the character's true skeleton.
func TestSkeletonize(t *testing.T) {
	dir := gen(t, "biped")
	rest, truth := filepath.Join(dir, "rest.obj"), filepath.Join(dir, "truth.glb")
	for _, method := range staticMethods {
		t.Run(method, func(t *testing.T) { skeletonizeAll(t, method, rest, truth) })
	}
}

// skeletonizeAll runs one method with every weight scheme; it skips a
// method this build does not have yet.
func skeletonizeAll(t *testing.T, method, rest, truth string) {
	m, err := readStaticMesh(rest, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ weights, out, collada string }{
		{"heat", "a.glb", ""}, {"geodesic", "b.dae", ""}, {"distance", "c.dae", "1.5"}, {"rigid", "d.glb", ""},
	} {
		out := filepath.Join(t.TempDir(), c.out)
		report := filepath.Join(t.TempDir(), "r.json")
		args := []string{"skeletonize", rest, "-o", out, "--method", method, "--weights", c.weights, "--truth", truth, "--report", report}
		if c.collada != "" {
			args = append(args, "--collada", c.collada)
		}
		text, err := run(t, args...)
		if err != nil && strings.Contains(err.Error(), "not available in this build") {
			t.Skipf("%v", err)
		}
		if err != nil {
			t.Fatalf("%s %s: %v", method, c.weights, err)
		}
		for _, want := range []string{"method", "joints", "seconds", "joint error%"} {
			if !strings.Contains(text, want) {
				t.Errorf("output lacks %q:\n%s", want, text)
			}
		}
		var rep staticReport
		b, _ := os.ReadFile(report)
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Vertices != len(m.Verts) || rep.Joints < 2 || rep.JointErrorPercent == nil || rep.Weights != c.weights || rep.Method == "" {
			t.Errorf("%s %s: report %+v", method, c.weights, rep)
		}
		t.Logf("%s %s: %d joints, joint error %.2f%%, %.2f s", method, c.weights, rep.Joints, *rep.JointErrorPercent, rep.Seconds)
		if _, err := readStaticMesh(out, nil); err != nil && !strings.HasSuffix(out, ".dae") {
			t.Errorf("written %s does not read back: %v", out, err)
		}
	}
}

// TestSkeletonizeTemplate: --template biped on a generated biped writes
// one joint per part under the convention's names, rooted at the hips;
// --template quadruped on it fails saying it reads as a biped, and
// nothing is written.
func TestSkeletonizeTemplate(t *testing.T) {
	dir := gen(t, "biped")
	rest, truth := filepath.Join(dir, "rest.obj"), filepath.Join(dir, "truth.glb")
	out := filepath.Join(t.TempDir(), "biped.glb")
	text, err := run(t, "skeletonize", rest, "-o", out, "--template", "biped", "--truth", truth)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, jt := range sc.Rig.Skeleton.Joints {
		names = append(names, jt.Name)
	}
	if len(names) == 0 || names[0] != "hips" {
		t.Errorf("root %q, want hips", names)
	}
	sort.Strings(names)
	want := "chest foot.L foot.R forearm.L forearm.R hand.L hand.R head hips neck shin.L shin.R spine thigh.L thigh.R upper_arm.L upper_arm.R"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("joints %q, want %q", got, want)
	}
	t.Logf("%s", text)
	bad := filepath.Join(t.TempDir(), "quad.glb")
	if _, err := run(t, "skeletonize", rest, "-o", bad, "--template", "quadruped"); err == nil || !strings.Contains(err.Error(), "reads as a biped") {
		t.Errorf("--template quadruped on a biped: error %v, want it to say it reads as a biped", err)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("output written")
	}
}
