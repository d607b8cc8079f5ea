package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// TestGenPC2: gen --pc2 writes the same frames as the OBJ sequence of the
// same character (to float32, the cache's precision), as one streamed
// cache that rig reads beside its rest mesh — given as the cache with
// --rest, or as the folder.
func TestGenPC2(t *testing.T) {
	dir := t.TempDir()
	objs, cache := filepath.Join(dir, "objs"), filepath.Join(dir, "cache")
	for _, args := range [][]string{{"-o", objs}, {"-o", cache, "--pc2"}} {
		if _, err := run(t, append([]string{"gen", "quadruped", "--frames", "7", "--vertices", "800"}, args...)...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "frame-0001.obj")); err == nil {
		t.Error("--pc2 also wrote OBJ frames")
	}
	a, err := format.Load([]string{objs}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := format.Load([]string{filepath.Join(cache, "anim.pc2")}, format.LoadOptions{Rest: filepath.Join(cache, "rest.obj")})
	if err != nil {
		t.Fatal(err)
	}
	sa, sb := a.Sequence, b.Sequence
	if sa.F() != 7 || sb.F() != 7 || sa.N() != sb.N() {
		t.Fatalf("OBJ frames %d × %d, cache %d × %d; want 7 frames each", sa.F(), sa.N(), sb.F(), sb.N())
	}
	d := sa.Diagonal()
	for f := 0; f < 7; f++ {
		fa, fb := sa.FrameInto(nil, f), sb.FrameInto(nil, f)
		for i := range fa {
			if fa[i].Dist(fb[i]) > 1e-6*d {
				t.Fatalf("frame %d vertex %d: OBJ %v, cache %v", f+1, i+1, fa[i], fb[i])
			}
		}
	}
	if sb.Clips[0].FPS != 30 {
		t.Errorf("the cache plays at %g fps, want 30", sb.Clips[0].FPS)
	}
	// The cache given with its rest mesh, and the folder holding both, are
	// the same input (but for the clip's name: the cache's or the folder's).
	var reps [2]string
	for k, args := range [][]string{{filepath.Join(cache, "anim.pc2"), "--rest", filepath.Join(cache, "rest.obj")}, {cache}} {
		out := filepath.Join(dir, fmt.Sprintf("q%d.glb", k))
		text, err := run(t, append(append([]string{"rig"}, args...), "-o", out)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "bones") || strings.HasPrefix(l, "RMSE%") || strings.HasPrefix(l, "frames") {
				reps[k] += l + "\n"
			}
		}
	}
	if reps[0] == "" || reps[0] != reps[1] {
		t.Errorf("rigging the folder gives\n%s\nrigging its cache with --rest\n%s", reps[1], reps[0])
	}
}
