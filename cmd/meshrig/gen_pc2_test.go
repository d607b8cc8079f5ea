package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// TestGenPC2: gen --pc2 writes the same frames as the OBJ sequence of the
// same character (to float32, the cache's precision), as one streamed
// cache that rig reads beside its rest mesh.
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
	out := filepath.Join(dir, "q.glb")
	if _, err := run(t, "rig", filepath.Join(cache, "anim.pc2"), "--rest", filepath.Join(cache, "rest.obj"), "-o", out); err != nil {
		t.Fatal(err)
	}
}
