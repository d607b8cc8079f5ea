package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestInfoAlembic: meshrig info lists an Alembic file's objects with their
// vertex counts, samples and times, and which were read.
func TestInfoAlembic(t *testing.T) {
	abc := shareddata.Path(t, "dembones/Bone_Anim.abc")
	text, err := run(t, "info", abc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vertices    754", "frames      400", "at 24 fps",
		"object /Bone  AbcGeom_Xform_v3  1 sample (static)", "object /Bone/BoneShape  AbcGeom_PolyMesh_v1  754 vertices, 752 faces  400 samples 0.041667–16.667 s (24 fps)  read: vertices 1–754"} {
		if !strings.Contains(text, want) {
			t.Errorf("info Bone_Anim.abc lacks %q:\n%s", want, text)
		}
	}
	if _, err := run(t, "info", abc, "--object", "/Bone/nope"); err == nil || !strings.Contains(err.Error(), "/Bone/BoneShape") {
		t.Errorf("--object /Bone/nope: %v, want an error naming the meshes", err)
	}
}

// TestRigAlembicWithOBJRest rigs the cache against a rest mesh given as
// an OBJ file (its first frame, written by our OBJ writer).
func TestRigAlembicWithOBJRest(t *testing.T) {
	abc := shareddata.Path(t, "dembones/Bone_Anim.abc")
	sc, err := format.ReadScene(abc, format.SceneOptions{Object: "/Bone"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rest := filepath.Join(dir, "rest.obj")
	f, err := os.Create(rest)
	if err != nil {
		t.Fatal(err)
	}
	if err := obj.Write(f, sc.Sequence.Rest); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(dir, "bone.glb")
	text, err := run(t, "rig", abc, "--rest", rest, "--frames", "1:60", "--bones", "5", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "vertices      754") || !strings.Contains(text, "frames        60") {
		t.Errorf("rig Bone_Anim.abc --rest rest.obj:\n%s", text)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}

// TestRenderAlembic draws a frame of the cache, one object picked.
func TestRenderAlembic(t *testing.T) {
	abc := shareddata.Path(t, "dembones/Bone_Anim.abc")
	out := filepath.Join(t.TempDir(), "bone.png")
	if _, err := run(t, "render", abc, "-o", out, "--frame", "100", "--object", "/Bone/BoneShape"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Errorf("no picture: %v", err)
	}
	if _, err := run(t, "render", abc, "-o", out, "--object", "/nope"); err == nil || !strings.Contains(err.Error(), "no such object") {
		t.Errorf("--object /nope: %v", err)
	}
}
