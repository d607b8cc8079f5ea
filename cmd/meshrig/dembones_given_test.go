package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestDemBonesSolveWeights: run.sh's "-i=Bone_Trans.fbx --nTransIters=0"
// line — a skeleton with motion and no skin, weights solved — as
// `rig --skeleton Bone_Trans.fbx --solve weights`: the file's 400-frame
// clip is the motion, the joints come back as the file has them, and the
// result replays the cache no worse than Dem Bones' SolvedWeights.fbx.
func TestDemBonesSolveWeights(t *testing.T) {
	if _, _, err := format.ByPath("x.abc"); err != nil {
		t.Skip("no Alembic reader registered (format/abc); skipping")
	}
	dir := "dembones/"
	abc, geom, trans := shareddata.Path(t, dir+"Bone_Anim.abc"), shareddata.Path(t, dir+"Bone_Geom.fbx"), shareddata.Path(t, dir+"Bone_Trans.fbx")
	out := filepath.Join(t.TempDir(), "w.fbx")
	if text, err := run(t, "rig", abc, "--rest", geom, "--skeleton", trans, "--solve", "weights", "-o", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	ours, _ := evalJSON(t, out, abc)
	theirs, _ := evalJSON(t, shareddata.Path(t, dir+"SolvedWeights.fbx"), abc, "--rig-clip", "demBones")
	if !(ours <= theirs*1.01) {
		t.Errorf("RMSE%% %.4f, Dem Bones' %.4f", ours, theirs)
	}
	src, err := format.ReadScene(trans, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rig == nil || src.Skeleton == nil || got.Rig.Skeleton.Len() != src.Skeleton.Len() {
		t.Fatal("the written rig lost the file's joints")
	}
	for j, jt := range src.Skeleton.Joints {
		g := got.Rig.Skeleton.Joints[j]
		if g.Name != jt.Name || g.Parent != jt.Parent || g.Head.Dist(jt.Head) > 1e-9 {
			t.Errorf("joint %d: %q under %d at %v, the file's %q under %d at %v", j, g.Name, g.Parent, g.Head, jt.Name, jt.Parent, jt.Head)
		}
	}
	// The unskinned file is a --truth too: every joint is where it was.
	text, err := run(t, "eval", out, abc, "--truth", trans)
	if err != nil || !strings.Contains(text, "joint error%  0.0000") {
		t.Errorf("eval --truth Bone_Trans.fbx: %v\n%s", err, text)
	}
	t.Logf("RMSE%% %.4f, Dem Bones' SolvedWeights.fbx %.4f", ours, theirs)
}

// TestDemBonesPartialWeights: run.sh's vertex-colour line on the ASCII
// Bone_PartiallySkinned.fbx, as `--mask vertex-colour-inverse --solve
// weights`: white vertices keep their weights, the rest are re-solved,
// and the result beats both the file's own rig and Dem Bones'
// SolvedPartialWeights.fbx.
func TestDemBonesPartialWeights(t *testing.T) {
	if _, _, err := format.ByPath("x.abc"); err != nil {
		t.Skip("no Alembic reader registered (format/abc); skipping")
	}
	dir := "dembones/"
	abc, geom, part := shareddata.Path(t, dir+"Bone_Anim.abc"), shareddata.Path(t, dir+"Bone_Geom.fbx"), shareddata.Path(t, dir+"Bone_PartiallySkinned.fbx")
	out := filepath.Join(t.TempDir(), "p.fbx")
	if text, err := run(t, "rig", abc, "--rest", geom, "--rig", part, "--mask", "vertex-colour-inverse", "--solve", "weights", "-o", out); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	ours, _ := evalJSON(t, out, abc)
	start, _ := evalJSON(t, part, abc)
	theirs, _ := evalJSON(t, shareddata.Path(t, dir+"SolvedPartialWeights.fbx"), abc, "--rig-clip", "demBones")
	if !(ours < start && ours < theirs) {
		t.Errorf("RMSE%% %.4f; the file's rig %.4f, Dem Bones' %.4f", ours, start, theirs)
	}
	src, err := format.ReadScene(part, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mask, err := readMask("vertex-colour-inverse", src.Rig)
	if err != nil {
		t.Fatal(err)
	}
	kept, worst := 0, 0.0
	for i, m := range mask {
		if m != 0 {
			continue
		}
		kept++
		a, b := src.Rig.Skin[i], got.Rig.Skin[i]
		for k := range a.Weight {
			if a.Weight[k] > 0 || b.Weight[k] > 0 {
				if a.Joint[k] != b.Joint[k] {
					worst = math.Inf(1)
				}
				worst = max(worst, math.Abs(a.Weight[k]-b.Weight[k]))
			}
		}
	}
	if kept < 100 || kept > 300 || worst > 1e-6 {
		t.Errorf("%d white vertices, weights moved by up to %g", kept, worst)
	}
	t.Logf("RMSE%% %.4f (file's rig %.4f, Dem Bones %.4f); %d white vertices kept within %.2g", ours, start, theirs, kept, worst)
}
