package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestInfoOnOwnRig: a rig meshrig wrote (float32 in the file) is reported
// skeletal, and counts read as words ("1 clip").
func TestInfoOnOwnRig(t *testing.T) {
	seq := gen(t, "snake")
	out := filepath.Join(t.TempDir(), "s.glb")
	if _, err := run(t, "rig", seq, "-o", out, "--iterations", "2"); err != nil {
		t.Fatal(err)
	}
	text, err := run(t, "info", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, " 1 clip, skeletal: true") {
		t.Errorf("info on our own rig:\n%s", text)
	}
}

func TestInfoOnFox(t *testing.T) {
	fox := shareddata.Path(t, "gltf/Fox.glb")
	text, err := run(t, "info", fox)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "3 clips, skeletal: true") {
		t.Errorf("info on Fox.glb:\n%s", text)
	}
}

// TestInfoOnStillRig: a rig without animation — skeletonize's glTF and
// COLLADA output — is described (its mesh, no frames, its joints), not
// refused for having no frames.
func TestInfoOnStillRig(t *testing.T) {
	dir := gen(t, "snake")
	for _, ext := range []string{".glb", ".dae"} {
		out := filepath.Join(t.TempDir(), "still"+ext)
		if _, err := run(t, "skeletonize", filepath.Join(dir, "rest.obj"), "-o", out); err != nil {
			t.Fatal(err)
		}
		text, err := run(t, "info", out)
		if err != nil {
			t.Fatalf("info %s: %v", ext, err)
		}
		for _, want := range []string{"frames      0 (no animation)", " 0 clips, skeletal: true", "vertices    "} {
			if !strings.Contains(text, want) {
				t.Errorf("info on a still %s rig lacks %q:\n%s", ext, want, text)
			}
		}
	}
}
