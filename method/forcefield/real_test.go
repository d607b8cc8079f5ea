package forcefield

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/obj"
	_ "github.com/meshrig/meshrig/format/off"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/groundtruth"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skeletonshape"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/metric"
)

// TestStaticMeshes: every mesh of the shared static set (quads, genus 4,
// several shells, open ones, 43k vertices) yields a valid, connected
// skeleton with no two joints in one place, fertility (genus 4) keeps its
// four loops, and the armadillo's joint count stays within the budget.
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
			for _, name := range []string{"armadillo", "camel_b"} {
				if strings.HasPrefix(e.Name(), name+".") {
					checkSymmetric(t, m, s)
				}
			}
			checkDistinct(t, s, mesh.Diagonal(m.Verts))
			// Issue 18's joint budget: the armadillo's toes and fingers,
			// thinner than the voxels, fold into its feet and hands
			// (measured 40; 51 before, 58 without skeletonshape).
			if strings.HasPrefix(e.Name(), "armadillo.") && len(s.Joints) > 42 {
				t.Errorf("armadillo: %d joints, want at most 42", len(s.Joints))
			}
		})
	}
}

// TestJointError measures the skeleton against ground-truth joints
// (symmetric chamfer distance in % of the bounding-box diagonal): the
// libigl rigs' TGF skeletons and the glTF characters' own skins in bind
// pose. Issue 6 asks for at most 5% on each (issue 18: 4, not met by the
// arm); the bounds are the measured errors with a little margin, 5 itself
// where less is left (with the skeletonshape step and its waists, the
// heads' ends at the neck and the even runs: elephant 3.83, wolf 2.90,
// arm 4.95, CesiumMan 2.28, Fox 3.33, RiggedSimple 3.89 — 4.94 before
// skeletonshape.EvenRuns spaced its cylinder's joints evenly and centred
// them on its axis; before the
// heads' ends (the elephant's crown, the head's centre merged into the
// top of the neck) 4.19, 2.90, 4.95, 2.35, 3.33, 4.94; without the waists 4.37, 2.94, 4.95, 2.44,
// 3.33, 4.94; before the skeletonshape step 4.76, 2.99, 4.91, 2.44, 3.25, 4.97;
// before the plates, tips, exits, bends and welded parts: 12.0, 3.28,
// 5.24, 3.20, 5.51, 9.08; the arm was 5.13 before the fingers thinner
// than a voxel were pruned). What remains is mostly detail the artists
// left out: the elephant's trunk has no joints in its rig (and its true
// skull-top joint is 5.6% of d from the crown tip), the arm's
// truth has one joint for the whole hand where the force field still
// finds the palm's forks (and force minima midway along its upper arm
// and forearm, at the muscles' bellies, where the rig has none), and the
// glTF rigs end their chains one bone short of the tips and have roots
// on the ground. RiggedSimple's truth spaces joints evenly along a
// straight cylinder, where the force field is flat and its minima fall
// where the voxel centres do (EvenRuns spaces them evenly; what remains
// is mostly our tip at the cylinder's top end, 19% of d from the truth's
// last joint, which a glTF rig leaves out). The elephant's true head joint, at the top
// of its neck (the TGF's joint 5), has a joint of ours within 3% of d
// (1.79%: skeletonshape.Waists; 6.65% before, when the nearest were the
// neck's base and the head's centre).
func TestJointError(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the shared rigs")
	}
	for _, c := range []struct {
		name  string
		bound float64
	}{
		{"elephant", 4}, {"wolf", 3.2}, {"arm", 5},
		{"CesiumMan.glb", 2.5}, {"Fox.glb", 3.5}, {"RiggedSimple.glb", 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, truth := groundtruth.Joints(t, c.name)
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
			if c.name != "arm" && c.name != "RiggedSimple.glb" {
				checkSymmetric(t, m, s)
			}
			if c.name == "elephant" {
				const head = 5 // the TGF's joint at the top of the neck
				near := math.Inf(1)
				for _, p := range s.Joints {
					near = math.Min(near, p.Dist(truth[head]))
				}
				if e := 100 * near / mesh.Diagonal(m.Verts); e > 3 {
					t.Errorf("elephant: the true head joint's nearest joint is %.2f%% of d away, want at most 3", e)
				}
			}
		})
	}
}

// checkSymmetric fails t unless m has a mirror plane and every joint of
// s has its mirror image on a joint, within 0.5% of the diagonal (issue
// 18), and the root lies on the plane.
func checkSymmetric(t *testing.T, m *mesh.Mesh, s *static.Skeleton) {
	t.Helper()
	pl, ok := skeletonshape.MirrorPlane(m)
	if !ok || pl.Residual > skeletonshape.SymmetricResidual {
		t.Fatalf("no mirror plane (residual %.2f%%)", pl.Residual)
	}
	d := mesh.Diagonal(m.Verts)
	paired := 0
	for _, p := range s.Joints {
		r := pl.Reflect(p)
		for _, q := range s.Joints {
			if r.Dist(q) <= 0.005*d {
				paired++
				break
			}
		}
	}
	t.Logf("mirror plane residual %.2f%%: %d of %d joints mirrored within 0.5%% of d; skeleton mirror residual %.3f%%",
		pl.Residual, paired, len(s.Joints), skeletonshape.MirrorResidual(s, pl, d))
	if paired < len(s.Joints) {
		t.Errorf("%d of %d joints have a mirror image, want all", paired, len(s.Joints))
	}
	if side := math.Abs(pl.Side(s.Joints[s.Root])); side > 0.005*d {
		t.Errorf("root %.2f%% of d off the mirror plane", 100*side/d)
	}
}

// checkDistinct fails t when two joints of s lie in one place (within
// 1e-9 of the diagonal d): a bone of no length, as bones sharing a curve
// out of a fork once each got their own copy of the joint there.
func checkDistinct(t *testing.T, s *static.Skeleton, d float64) {
	t.Helper()
	for j, p := range s.Joints {
		for k := j + 1; k < len(s.Joints); k++ {
			if p.Dist(s.Joints[k]) <= 1e-9*d {
				t.Errorf("joints %d and %d both at %v", j, k, p)
			}
		}
	}
}
