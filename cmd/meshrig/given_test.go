package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// jointsOf reads a file's skeleton back.
func jointsOf(t *testing.T, path string) []rig.Joint {
	t.Helper()
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig == nil {
		t.Fatalf("%s: no rig", path)
	}
	return sc.Rig.Skeleton.Joints
}

// sameHierarchy fails unless b has a's joint names in a's order, with the
// same parents.
func sameHierarchy(t *testing.T, what string, a, b []rig.Joint) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d joints, want %d", what, len(b), len(a))
	}
	for j := range a {
		if a[j].Name != b[j].Name || a[j].Parent != b[j].Parent {
			t.Fatalf("%s: joint %d is %q under %d, want %q under %d", what, j, b[j].Name, b[j].Parent, a[j].Name, a[j].Parent)
		}
	}
}

// reportOf runs meshrig with --report and returns the report.
func reportOf(t *testing.T, args ...string) metric.Report {
	t.Helper()
	p := filepath.Join(t.TempDir(), "report.json")
	if out, err := run(t, append(args, "--report", p)...); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var rep metric.Report
	b, _ := os.ReadFile(p)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestRigGivenSkeleton: every generated character given its true skeleton
// (truth.glb) gets weights and motion solved from scratch that replay it
// within RMSE% 0.03, and the written rig keeps the joints' names, order
// and parents — through glTF, and for the biped Collada, FBX and USD.
func TestRigGivenSkeleton(t *testing.T) {
	for _, kind := range []string{"biped", "quadruped", "hand", "snake"} {
		t.Run(kind, func(t *testing.T) {
			dir := gen(t, kind)
			truth := filepath.Join(dir, "truth.glb")
			for _, ext := range []string{".glb", ".dae", ".fbx", ".usda"} {
				if kind != "biped" && ext != ".glb" {
					continue
				}
				out := filepath.Join(t.TempDir(), "out"+ext)
				rep := reportOf(t, "rig", dir, "--skeleton", truth, "-o", out)
				t.Logf("%s%s: RMSE%% %.4f Max%% %.4f", kind, ext, rep.RMSEPercent, rep.MaxPercent)
				if rep.RMSEPercent > 0.03 {
					t.Errorf("%s%s: RMSE%% %.4f, want ≤ 0.03", kind, ext, rep.RMSEPercent)
				}
				sameHierarchy(t, kind+ext, jointsOf(t, truth), jointsOf(t, out))
			}
		})
	}
}

// writeShifted writes the biped's true rig moved and scaled (a skeleton
// exported in centimetres at another origin).
func writeShifted(t *testing.T, dir string, scale float64, shift linalg.Vec3) string {
	t.Helper()
	sc, err := format.ReadScene(filepath.Join(dir, "truth.glb"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := sc.Rig
	sk := rig.Skeleton{Joints: append([]rig.Joint(nil), r.Skeleton.Joints...)}
	for j := range sk.Joints {
		sk.Joints[j].Head = sk.Joints[j].Head.Scale(scale).Add(shift)
	}
	verts := make([]linalg.Vec3, len(r.Mesh.Verts))
	for i, v := range r.Mesh.Verts {
		verts[i] = v.Scale(scale).Add(shift)
	}
	m := *r.Mesh
	m.Verts = verts
	moved := &rig.Rig{Mesh: &m, Skeleton: sk, Skin: r.Skin}
	p := filepath.Join(t.TempDir(), "moved.glb")
	if err := format.WriteFile(p, moved, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRigGivenSkeletonPlacement: a skeleton in centimetres is refused with
// a line naming the file and --fit-skeleton; with --fit-skeleton it rigs.
func TestRigGivenSkeletonPlacement(t *testing.T) {
	dir := gen(t, "biped")
	cm := writeShifted(t, dir, 100, linalg.Vec3{0, 0, 0})
	out := filepath.Join(t.TempDir(), "out.glb")
	_, err := run(t, "rig", dir, "--skeleton", cm, "-o", out)
	if err == nil || !strings.Contains(err.Error(), cm) || !strings.Contains(err.Error(), "--fit-skeleton") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("centimetre skeleton: %v", err)
	}
	rep := reportOf(t, "rig", dir, "--skeleton", cm, "--fit-skeleton", "-o", out)
	t.Logf("fitted centimetre skeleton: RMSE%% %.4f", rep.RMSEPercent)
	if rep.RMSEPercent > 0.2 {
		t.Errorf("fitted skeleton RMSE%% %.4f", rep.RMSEPercent)
	}
}

// TestRigGivenRig: --rig with each --solve keeps the rig's hierarchy; a
// rig of another mesh is refused naming both files.
func TestRigGivenRig(t *testing.T) {
	dir := gen(t, "biped")
	truth := filepath.Join(dir, "truth.glb")
	for _, solve := range []string{"weights", "motion", "both"} {
		out := filepath.Join(t.TempDir(), "out.glb")
		rep := reportOf(t, "rig", dir, "--rig", truth, "--solve", solve, "-o", out)
		t.Logf("--solve %s: RMSE%% %.5f", solve, rep.RMSEPercent)
		if rep.RMSEPercent > 0.01 {
			t.Errorf("--solve %s on the true rig: RMSE%% %.4f", solve, rep.RMSEPercent)
		}
		sameHierarchy(t, solve, jointsOf(t, truth), jointsOf(t, out))
	}
	other := gen(t, "snake")
	out := filepath.Join(t.TempDir(), "out.glb")
	_, err := run(t, "rig", dir, "--rig", filepath.Join(other, "truth.glb"), "-o", out)
	if err == nil || !strings.Contains(err.Error(), "vertices") || !strings.Contains(err.Error(), "snake") || !strings.Contains(err.Error(), dir) {
		t.Errorf("rig of another mesh: %v", err)
	}
}

// TestRigGivenBadInput: each bad input is one line naming the file and
// the thing.
func TestRigGivenBadInput(t *testing.T) {
	dir := gen(t, "biped")
	truth := filepath.Join(dir, "truth.glb")
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out.glb")
	far := writeShifted(t, dir, 1, linalg.Vec3{50, 0, 0})
	short := filepath.Join(tmp, "short.txt")
	os.WriteFile(short, []byte("1\n0\n1\n"), 0o644)
	bad := filepath.Join(tmp, "bad.txt")
	os.WriteFile(bad, []byte("1\nx\n"), 0o644)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--skeleton", far}, []string{far, "outside the mesh's bounding box"}},
		{[]string{"--rig", truth, "--helpers", "2", "--lock", "pelvis,tail"}, []string{truth, `"tail"`}},
		{[]string{"--rig", truth, "--mask", short}, []string{short, "3 mask values", "vertices"}},
		{[]string{"--rig", truth, "--mask", bad}, []string{bad + ":2"}},
		{[]string{"--rig", truth, "--mask", "vertex-colour"}, []string{"no vertex colours"}},
		{[]string{"--helpers", "2"}, []string{"--helpers needs --rig"}},
		{[]string{"--skeleton", truth, "--rig", truth}, []string{"give one"}},
	} {
		_, err := run(t, append([]string{"rig", dir, "-o", out}, c.args...)...)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q lacks %q", c.args, err, w)
			}
		}
	}
}

// TestRigMask: vertices with mask 0 keep the rig's weights bit for bit
// (as written and read back), the others are solved again.
func TestRigMask(t *testing.T) {
	dir := gen(t, "biped")
	truth := filepath.Join(dir, "truth.glb")
	sc, err := format.ReadScene(truth, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Start from weights that are wrong on the left leg, masked in.
	r := sc.Rig
	n := len(r.Mesh.Verts)
	var lines strings.Builder
	masked := 0
	for i := 0; i < n; i++ {
		v := 0
		if r.Mesh.Verts[i][0] > 0.05 && r.Mesh.Verts[i][1] < 0.9 {
			v, masked = 1, masked+1
			r.Skin[i] = rig.Influence{Joint: [4]rig.JointID{0}, Weight: [4]float64{1}}
		}
		lines.WriteString([]string{"0\n", "1\n"}[v])
	}
	tmp := t.TempDir()
	broken := filepath.Join(tmp, "broken.glb")
	if err := format.WriteFile(broken, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// What the glTF writer makes of the input's weights (it rounds to
	// float32 with the sum at 1): mask-0 vertices must come out as this.
	again := filepath.Join(tmp, "again.glb")
	back, err := format.ReadScene(broken, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := format.WriteFile(again, back.Rig, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	in := jointsAndSkin(t, again)
	mask := filepath.Join(tmp, "mask.txt")
	os.WriteFile(mask, []byte(lines.String()), 0o644)
	out := filepath.Join(tmp, "out.glb")
	before := reportOf(t, "eval", broken, dir)
	rep := reportOf(t, "rig", dir, "--rig", broken, "--solve", "weights", "--mask", mask, "-o", out)
	t.Logf("%d of %d vertices masked in: RMSE%% %.4f → %.4f", masked, n, before.RMSEPercent, rep.RMSEPercent)
	if rep.RMSEPercent > before.RMSEPercent/5 {
		t.Errorf("masked solve: RMSE%% %.4f from %.4f", rep.RMSEPercent, before.RMSEPercent)
	}
	got := jointsAndSkin(t, out)
	kept, changed := 0, 0
	for i := 0; i < n; i++ {
		if lines.String()[2*i] == '0' {
			if got[i] != in[i] {
				t.Fatalf("vertex %d (mask 0): weights %v, want %v", i, got[i], in[i])
			}
			kept++
		} else if got[i] != in[i] {
			changed++
		}
	}
	if changed == 0 {
		t.Errorf("no masked-in vertex changed")
	}
	t.Logf("%d kept bit for bit, %d of %d masked-in changed", kept, changed, masked)
}

// jointsAndSkin reads a rig's skin back, by joint name so the file's
// joint order does not matter.
func jointsAndSkin(t *testing.T, path string) []string {
	t.Helper()
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(sc.Rig.Skin))
	for i, in := range sc.Rig.Skin {
		var parts []string
		for k, w := range in.Weight {
			if w > 0 {
				parts = append(parts, fmt.Sprintf("%s=%x", sc.Rig.Skeleton.Joints[in.Joint[k]].Name, math.Float64bits(w)))
			}
		}
		sort.Strings(parts)
		out[i] = strings.Join(parts, " ")
	}
	return out
}
