package forcefield

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/format/libigl"
	_ "github.com/meshrig/meshrig/format/obj"
	_ "github.com/meshrig/meshrig/format/off"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
)

// TestStaticMeshes: every mesh of the shared static set (quads, genus 4,
// several shells, open ones, 43k vertices) yields a valid, connected
// skeleton, and fertility (genus 4) keeps its four loops.
func TestStaticMeshes(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every shared static mesh")
	}
	dir := shareddata.Path(t, "static")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.Contains(e.Name(), ".obj") && !strings.Contains(e.Name(), ".off") {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			m, err := format.ReadMesh(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			s, err := Skeleton(context.Background(), m, Options{Notes: func(n string) { t.Log(n) }})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			loops := len(s.Edges) - len(s.Joints) + 1
			t.Logf("%d vertices: %d joints, %d bones, %d loops, %v", len(m.Verts), len(s.Joints), len(s.Edges),
				loops, time.Since(start).Round(time.Millisecond))
			if strings.HasPrefix(e.Name(), "fertility") && loops != 4 {
				t.Errorf("fertility has genus 4, the skeleton %d loops", loops)
			}
		})
	}
}

// TestJointError measures the skeleton against ground-truth joints
// (symmetric chamfer distance in % of the bounding-box diagonal): the
// libigl rigs' TGF skeletons and the glTF characters' own skins in bind
// pose. Issue 6 asks for at most 5% on each; the bounds are the measured
// errors with a little margin, 5 itself where less is left (elephant
// 4.76, wolf 2.99, arm 4.91, CesiumMan 2.44, Fox 3.61, RiggedSimple 4.97;
// before the plates, tips, exits, bends and welded parts: 12.0, 3.28,
// 5.24, 3.20, 5.51, 9.08; the arm was 5.13 before the fingers thinner
// than a voxel were pruned). What remains is mostly detail the artists
// left out: the elephant's trunk has no joints in its rig, the arm's
// truth has one joint for the whole hand where the force field still
// finds the palm's forks (and force minima midway along its upper arm
// and forearm, at the muscles' bellies, where the rig has none), and the
// glTF rigs end their chains one bone short of the tips and have roots
// on the ground. RiggedSimple's truth spaces joints evenly along a
// straight cylinder, where the force field is flat and its minima fall
// where the voxel centres do.
func TestJointError(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the shared rigs")
	}
	for _, c := range []struct {
		name, mesh, truth string
		bound             float64
	}{
		{"elephant", "rigs/elephant/elephant.obj.gz", "rigs/elephant/elephant.tgf.gz", 5},
		{"wolf", "rigs/wolf/wolf.obj.gz", "rigs/wolf/wolf.tgf.gz", 3.3},
		{"arm", "rigs/arm/arm.obj.gz", "rigs/arm/arm.tgf.gz", 5},
		{"CesiumMan", "gltf/CesiumMan.glb", "", 2.7},
		{"Fox", "gltf/Fox.glb", "", 4},
		{"RiggedSimple", "gltf/RiggedSimple.glb", "", 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, truth := loadTruth(t, shareddata.Path(t, c.mesh), c.truth)
			start := time.Now()
			s, err := Skeleton(context.Background(), m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			e := metric.JointError(s.Joints, truth, mesh.Diagonal(m.Verts))
			t.Logf("%s: %d joints (truth %d), joint error %.2f%% of d, %v", c.name, len(s.Joints), len(truth), e,
				time.Since(start).Round(time.Millisecond))
			if e > c.bound {
				t.Errorf("joint error %.2f%%, want at most %.1f%%", e, c.bound)
			}
		})
	}
}

// loadTruth reads a rest mesh and its ground-truth joints: from a TGF
// file beside it (truth names it, relative to the shared data), or from a
// glTF file's own skin in bind pose (truth empty).
func loadTruth(t *testing.T, path, truth string) (*mesh.Mesh, []linalg.Vec3) {
	t.Helper()
	if truth == "" {
		sc, err := format.ReadScene(path, format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if sc.Mesh == nil || sc.Rig == nil {
			t.Fatalf("%s: no bind-pose mesh or skin", path)
		}
		return sc.Mesh, metric.Heads(&sc.Rig.Skeleton)
	}
	m, err := format.ReadMesh(path)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := format.Open(shareddata.Path(t, truth))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tgf, err := libigl.ReadTGF(rc)
	if err != nil {
		t.Fatal(err)
	}
	return m, tgf.Joints
}
