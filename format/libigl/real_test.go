package libigl

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

func open[T any](t *testing.T, path string, read func(r interface{ Read([]byte) (int, error) }) (T, error)) T {
	t.Helper()
	rc, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	v, err := read(rc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

func readTGF(r interface{ Read([]byte) (int, error) }) (*TGF, error)     { return ReadTGF(r) }
func readDMAT(r interface{ Read([]byte) (int, error) }) (*Matrix, error) { return ReadDMAT(r) }
func readTable(r interface{ Read([]byte) (int, error) }) (*Matrix, error) {
	return ReadTable(r)
}

// maxDist returns the largest distance between matching points.
func maxDist(a, b []linalg.Vec3) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, a[i].Dist(b[i]))
	}
	return m
}

// replay plays transforms three ways: libigl's own LBS with every weight
// (exact), LBS of the rig's four-influence skin with the transforms
// as given (capped), and meshrig's rig with the transforms turned into a
// joint-rotation clip (ours).
func replay(t *testing.T, m *mesh.Mesh, r *rig.Rig, boneJoint []rig.JointID, w *Matrix, frames [][]linalg.Affine) (exact, capped, ours *seq.Sequence) {
	exact, capped, ours = seq.New(m), seq.New(m), seq.New(m)
	var mats []linalg.Affine
	for f, tr := range frames {
		if err := exact.AddFrame(Deform(m.Verts, w, tr), fmt.Sprint(f)); err != nil {
			t.Fatal(err)
		}
		sm := SkinMatrices(r, boneJoint, tr)
		if err := capped.AddFrame(rig.Deform(nil, m.Verts, r.Skin, sm), fmt.Sprint(f)); err != nil {
			t.Fatal(err)
		}
		mats = append(mats, sm...)
	}
	r.Clips = []rig.Clip{rig.ClipFromSkinMatrices(&r.Skeleton, "anim", 30, len(frames), mats)}
	for f := range frames {
		if err := ours.AddFrame(r.Frame(nil, 0, f), fmt.Sprint(f)); err != nil {
			t.Fatal(err)
		}
	}
	return exact, capped, ours
}

func TestWolfPoses(t *testing.T) {
	dir := shareddata.Path(t, "rigs/wolf")
	m, err := format.ReadMesh(filepath.Join(dir, "wolf.obj.gz"))
	if err != nil {
		t.Fatal(err)
	}
	tgf := open(t, filepath.Join(dir, "wolf.tgf.gz"), readTGF)
	w := open(t, filepath.Join(dir, "wolf.DMAT.gz"), readDMAT)
	r, boneJoint, err := Rig(m, tgf, w)
	if err != nil {
		t.Fatal(err)
	}
	d := mesh.Diagonal(m.Verts)
	var frames [][]linalg.Affine
	given := seq.New(m)
	for k := 1; k <= 5; k++ {
		tm := open(t, filepath.Join(dir, "poses", fmt.Sprintf("wolf-%d.Tmat.gz", k)), readTable)
		tr, err := Transforms(tm)
		if err != nil {
			t.Fatal(err)
		}
		pose, err := format.ReadMesh(filepath.Join(dir, "poses", fmt.Sprintf("wolf-%d.obj.gz", k)))
		if err != nil {
			t.Fatal(err)
		}
		if err := given.AddMesh(pose, fmt.Sprintf("wolf-%d", k)); err != nil {
			t.Fatal(err)
		}
		frames = append(frames, tr)
	}
	exact, capped, ours := replay(t, m, r, boneJoint, w, frames)
	checkReplay(t, "wolf", given, exact, capped, ours, d)
}

func TestElephantAnimation(t *testing.T) {
	dir := shareddata.Path(t, "rigs/elephant")
	m, err := format.ReadMesh(filepath.Join(dir, "elephant.obj.gz"))
	if err != nil {
		t.Fatal(err)
	}
	tgf := open(t, filepath.Join(dir, "elephant.tgf.gz"), readTGF)
	w := open(t, filepath.Join(dir, "elephant-weights.dmat.gz"), readDMAT)
	anim := open(t, filepath.Join(dir, "elephant-anim.dmat.gz"), readDMAT)
	r, boneJoint, err := Rig(m, tgf, w)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]linalg.Affine
	for f := 0; f < anim.Cols; f++ {
		tr, err := AnimationFrame(anim, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr) != len(tgf.Bones) {
			t.Fatalf("%d transforms for %d bones", len(tr), len(tgf.Bones))
		}
		frames = append(frames, tr)
	}
	exact, capped, ours := replay(t, m, r, boneJoint, w, frames)
	checkReplay(t, "elephant", exact, exact, capped, ours, mesh.Diagonal(m.Verts))
}

// checkRig asserts the ground truth replays the given poses within
// 1e-4·d through libigl's convention (every weight), and that meshrig's
// joint-rotation rig adds nothing to the cost of its four-influence skin,
// which it logs.
func checkReplay(t *testing.T, name string, given, exact, capped, ours *seq.Sequence, d float64) {
	t.Helper()
	if e := maxDist(exact.Frames, given.Frames); e > 1e-4*d {
		t.Errorf("%s: the ground truth replays %.3g·d from the given poses", name, e/d)
	}
	if e := maxDist(ours.Frames, capped.Frames); e > 1e-5*d {
		t.Errorf("%s: the joint-rotation clip moves vertices %.3g·d from the transforms it came from", name, e/d)
	}
	t.Logf("%s: exact replay off by %.2g·d; with ≤4 influences off by %.2g·d max (RMSE%% %.3g)",
		name, maxDist(exact.Frames, given.Frames)/d, maxDist(ours.Frames, given.Frames)/d, rmsePercent(ours, given, d))
}

func rmsePercent(a, b *seq.Sequence, d float64) float64 {
	var s float64
	for k := range a.Frames {
		s += a.Frames[k].Sub(b.Frames[k]).Norm2()
	}
	return 100 * math.Sqrt(s/float64(len(a.Frames))) / d
}

func TestArm(t *testing.T) {
	dir := shareddata.Path(t, "rigs/arm")
	m, err := format.ReadMesh(filepath.Join(dir, "arm.obj.gz"))
	if err != nil {
		t.Fatal(err)
	}
	tgf := open(t, filepath.Join(dir, "arm.tgf.gz"), readTGF)
	w := open(t, filepath.Join(dir, "arm-weights.dmat.gz"), readDMAT)
	r, _, err := Rig(m, tgf, w)
	if err != nil {
		t.Fatal(err)
	}
	if len(tgf.Joints) != 5 || len(tgf.Bones) != 4 || r.Skeleton.Len() != 4 {
		t.Errorf("arm: %d joints, %d bones → %d rig joints", len(tgf.Joints), len(tgf.Bones), r.Skeleton.Len())
	}
}
