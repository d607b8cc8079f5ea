package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
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
// and parents — through glTF, and for the biped Collada, FBX and USD,
// whose Collada and FBX files serve as --skeleton FILE in their turn.
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
				if ext == ".dae" || ext == ".fbx" {
					// The written file is a skeleton FILE in its turn.
					again := filepath.Join(t.TempDir(), "again.glb")
					rep := reportOf(t, "rig", dir, "--skeleton", out, "-o", again)
					if rep.RMSEPercent > 0.03 {
						t.Errorf("--skeleton %s: RMSE%% %.4f", ext, rep.RMSEPercent)
					}
					sameHierarchy(t, "--skeleton "+ext, jointsOf(t, out), jointsOf(t, again))
				}
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
		{[]string{"--skeleton", "noen"}, []string{`"noen"`, "tree, none or a skeleton file"}},
		{[]string{"--rig", truth, "--solve", "weights", "--frames", "1:5"}, []string{truth, "do not have the animation's 5 frames"}},
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
	// The same mask painted as vertex colours (glTF COLOR_0).
	if r.Mesh.Surface == nil {
		r.Mesh.Surface = &mesh.Surface{}
	}
	paint := make([][4]float32, n)
	for i := range paint {
		v := float32(lines.String()[2*i] - '0')
		paint[i] = [4]float32{v, v, v, 1}
	}
	r.Mesh.Surface.Colors = []mesh.Attr[[4]float32]{{Name: "COLOR_0", Values: paint}}
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
	painted := filepath.Join(tmp, "painted.glb")
	if _, err := run(t, "rig", dir, "--rig", broken, "--solve", "weights", "--mask", "vertex-colour", "-o", painted); err != nil {
		t.Fatal(err)
	}
	if p := jointsAndSkin(t, painted); !slices.Equal(p, got) {
		t.Errorf("--mask vertex-colour gave other weights than the same mask as a file")
	}
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

// TestRigSharedGivenSkeleton: CesiumMan and Fox rigged on their own
// skeletons (the file as animation and as --skeleton) replay at RMSE%
// ≤ 0.1, joint names, order and parents kept.
func TestRigSharedGivenSkeleton(t *testing.T) {
	for _, name := range []string{"CesiumMan", "Fox"} {
		t.Run(name, func(t *testing.T) {
			in := shareddata.Path(t, "gltf/"+name+".glb")
			out := filepath.Join(t.TempDir(), name+".glb")
			rep := reportOf(t, "rig", in, "--skeleton", in, "-o", out)
			t.Logf("%s: RMSE%% %.4f Max%% %.4f", name, rep.RMSEPercent, rep.MaxPercent)
			if rep.RMSEPercent > 0.1 {
				t.Errorf("RMSE%% %.4f, want ≤ 0.1", rep.RMSEPercent)
			}
			sameHierarchy(t, name, jointsOf(t, in), jointsOf(t, out))
		})
	}
}

// TestRigHelpers: the biped whose arms bulge, as a point cache, on its
// body rig plus 4 helpers: at least half the body rig's RMSE% removed, the
// body joints' animation channels in the written glTF byte for byte the
// body rig's as meshrig reads and writes it.
func TestRigHelpers(t *testing.T) {
	body, err := character.Generate(character.Biped, character.Options{Frames: 12, Vertices: 1500})
	if err != nil {
		t.Fatal(err)
	}
	s, err := character.Flex(body, []string{"shoulder_l", "shoulder_r", "elbow_l", "elbow_r"}, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bodyPath, rest, cache := filepath.Join(tmp, "body.glb"), filepath.Join(tmp, "rest.obj"), filepath.Join(tmp, "flex.pc2")
	if err := format.WriteFile(bodyPath, body, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := obj.Write(&b, body.Mesh); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(rest, b.Bytes(), 0o644)
	b.Reset()
	frames := make([][]linalg.Vec3, s.F())
	for f := range frames {
		frames[f] = s.FrameInto(nil, f)
	}
	if err := pc2.Write(&b, frames); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cache, b.Bytes(), 0o644)

	before := reportOf(t, "eval", bodyPath, cache, "--rest", rest)
	out := filepath.Join(tmp, "helpers.glb")
	rep := reportOf(t, "rig", cache, "--rest", rest, "--rig", bodyPath, "--helpers", "4", "-o", out)
	t.Logf("body RMSE%% %.4f → %.4f with 4 helpers", before.RMSEPercent, rep.RMSEPercent)
	if rep.RMSEPercent > before.RMSEPercent/2 {
		t.Errorf("helpers removed %.0f%% of the error, want ≥ 50%%", 100*(1-rep.RMSEPercent/before.RMSEPercent))
	}
	// The body joints' channels in the output are, byte for byte, those
	// of the body rig read and written again: the helpers change nothing
	// of them. (A glTF read and rewrite is not itself byte-exact: the
	// reader re-derives local rotations, so a 0 component may come back
	// as 1e-18; refit copies the tracks it is given value for value —
	// method/refit's TestHelpersTakeTheBulge.)
	back, err := format.ReadScene(bodyPath, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(tmp, "again.glb")
	if err := format.WriteFile(again, back.Rig, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	a, c := channelBytes(t, again), channelBytes(t, out)
	if len(a) < body.Skeleton.Len() {
		t.Fatalf("the body file has %d channels", len(a))
	}
	for key, want := range a {
		if got, ok := c[key]; !ok || !bytes.Equal(got, want) {
			t.Errorf("channel %s: not the body's bytes", key)
		}
	}
	extra := 0
	for key := range c {
		if _, ok := a[key]; !ok {
			if !strings.HasPrefix(key, "helper_") {
				t.Errorf("new channel %s on a body joint", key)
			}
			extra++
		}
	}
	t.Logf("%d body channels byte for byte, %d helper channels", len(a), extra)
}

// channelBytes returns a glTF file's animation channels' sampler output
// data, keyed "node/path".
func channelBytes(t *testing.T, path string) map[string][]byte {
	t.Helper()
	doc, err := gltf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, an := range doc.Animations {
		for _, ch := range an.Channels {
			if ch.Target.Node == nil {
				continue
			}
			acc := doc.Accessors[an.Samplers[ch.Sampler].Output]
			data, err := modeler.ReadAccessor(doc, acc, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := binary.Write(&b, binary.LittleEndian, data); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("%s/%v", doc.Nodes[*ch.Target.Node].Name, ch.Target.Path)] = b.Bytes()
		}
	}
	return out
}

// TestRigGivenTGF: a libigl skeleton (.tgf, as gzip too) drives the rig:
// one joint per TGF bone, named bone_k as format/libigl names them.
func TestRigGivenTGF(t *testing.T) {
	dir := gen(t, "biped")
	sc, err := format.ReadScene(filepath.Join(dir, "truth.glb"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sk := sc.Rig.Skeleton
	var b strings.Builder
	for j, jt := range sk.Joints {
		fmt.Fprintf(&b, "%d %g %g %g\n", j+1, jt.Head[0], jt.Head[1], jt.Head[2])
	}
	ch := sk.Children()
	tips := 0
	var bones strings.Builder
	for j, jt := range sk.Joints {
		if jt.Parent >= 0 {
			fmt.Fprintf(&bones, "%d %d\n", jt.Parent+1, j+1)
		}
		if len(ch[j]) == 0 && jt.Parent >= 0 { // a tip past each leaf, so it has a bone
			tip := jt.Head.Add(jt.Head.Sub(sk.Joints[jt.Parent].Head).Scale(0.5))
			tips++
			fmt.Fprintf(&b, "%d %g %g %g\n", sk.Len()+tips, tip[0], tip[1], tip[2])
			fmt.Fprintf(&bones, "%d %d\n", j+1, sk.Len()+tips)
		}
	}
	text := b.String() + "#\n" + bones.String() + "#\n"
	tmp := t.TempDir()
	tgf, tgz := filepath.Join(tmp, "biped.tgf"), filepath.Join(tmp, "biped.tgf.gz")
	os.WriteFile(tgf, []byte(text), 0o644)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(text))
	zw.Close()
	os.WriteFile(tgz, z.Bytes(), 0o644)
	for _, p := range []string{tgf, tgz} {
		out := filepath.Join(tmp, "out.glb")
		rep := reportOf(t, "rig", dir, "--skeleton", p, "-o", out)
		joints := jointsOf(t, out)
		t.Logf("%s: %d joints, RMSE%% %.4f", filepath.Base(p), len(joints), rep.RMSEPercent)
		if len(joints) != sk.Len()+tips || rep.RMSEPercent > 0.05 {
			t.Errorf("%s: %d joints, RMSE%% %.4f", p, len(joints), rep.RMSEPercent)
		}
	}
}
