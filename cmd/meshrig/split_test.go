package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/seq"
)

// TestSplitClips: --split-clips writes one file per clip, named after it,
// each with the whole skeleton and skin and its clip alone.
func TestSplitClips(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, seed string }{{"walk", "1"}, {"run", "2"}} {
		if _, err := run(t, "gen", "snake", "-o", filepath.Join(dir, c.name), "--frames", "6", "--vertices", "800", "--seed", c.seed); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	_, err := run(t, "rig", filepath.Join(dir, "walk"), filepath.Join(dir, "run"), "--rest", filepath.Join(dir, "walk", "rest.obj"),
		"-o", filepath.Join(out, "hero.glb"), "--split-clips", "--iterations", "2")
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != 2 {
		t.Fatalf("wrote %v, want hero-walk.glb and hero-run.glb", ents)
	}
	var joints int
	for _, clip := range []string{"walk", "run"} {
		sc, err := format.ReadScene(filepath.Join(out, "hero-"+clip+".glb"), format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if sc.Rig == nil || len(sc.Rig.Clips) != 1 || sc.Rig.Clips[0].Name != clip {
			t.Fatalf("hero-%s.glb: %+v", clip, sc.Rig)
		}
		if joints != 0 && sc.Rig.Skeleton.Len() != joints {
			t.Errorf("the files' skeletons differ: %d and %d joints", joints, sc.Rig.Skeleton.Len())
		}
		joints = sc.Rig.Skeleton.Len()
	}
}

func TestClipFiles(t *testing.T) {
	got := clipFiles("a/hero.dae", []seq.Clip{{Name: "walk"}, {Name: "a/b"}, {Name: ""}, {Name: "walk"}})
	want := []string{"a/hero-walk.dae", "a/hero-a_b.dae", "a/hero-clip3.dae", "a/hero-walk_2.dae"}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("clipFiles = %q, want %q", got, want)
			break
		}
	}
}
