// Package groundtruth reads, for tests, the shared data's rest meshes
// together with their artists' joints: the libigl rigs (rigs/NAME, a TGF
// skeleton beside the mesh) and the glTF characters in bind pose (their
// own skins). Single-mesh methods are measured against these.
package groundtruth

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/format/libigl"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Joints returns the rest mesh of name and its true joint positions:
// name is a libigl rig ("elephant", "wolf", "arm") or a glTF character
// ("CesiumMan.glb"). It skips tb when the shared data is absent and fails
// it when a file is missing or broken.
func Joints(tb testing.TB, name string) (*mesh.Mesh, []linalg.Vec3) {
	tb.Helper()
	if strings.HasSuffix(name, ".glb") {
		sc, err := format.ReadScene(shareddata.Path(tb, filepath.Join("gltf", name)), format.SceneOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		if sc.Mesh == nil || sc.Rig == nil {
			tb.Fatalf("%s: no bind-pose mesh or skin", name)
		}
		return sc.Mesh, metric.DeformingHeads(sc.Rig)
	}
	dir := shareddata.Path(tb, filepath.Join("rigs", name))
	m, err := format.ReadMesh(filepath.Join(dir, name+".obj.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	rc, err := format.Open(filepath.Join(dir, name+".tgf.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	defer rc.Close()
	tgf, err := libigl.ReadTGF(rc)
	if err != nil {
		tb.Fatal(err)
	}
	return m, tgf.Joints
}

// Motion returns the rest mesh of name with its true rig and the motion
// that rig plays (the glTF character's clips, the libigl rig's poses), as
// the pose test reads them; it fails tb when name has no motion.
func Motion(tb testing.TB, name string) (*mesh.Mesh, *rig.Rig, *seq.Sequence) {
	tb.Helper()
	var m *mesh.Mesh
	var truth *rig.Rig
	var anim *seq.Sequence
	if strings.HasSuffix(name, ".glb") {
		sc, err := format.ReadScene(shareddata.Path(tb, filepath.Join("gltf", name)), format.SceneOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		m, truth, anim = sc.Mesh, sc.Rig, sc.Sequence
	} else {
		dir := shareddata.Path(tb, filepath.Join("rigs", name))
		var err error
		if m, err = format.ReadMesh(filepath.Join(dir, name+".obj.gz")); err != nil {
			tb.Fatal(err)
		}
		if truth, anim, err = libigl.ReadMotion(filepath.Join(dir, name+".tgf.gz"), m); err != nil {
			tb.Fatal(err)
		}
	}
	if m == nil || truth == nil || anim == nil {
		tb.Fatalf("%s: no motion", name)
	}
	return m, truth, anim
}
