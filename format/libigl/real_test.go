package libigl

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// The shared rigs are libigl's: tests replay them two ways. The data's own
// convention (Deform: every weight, per-bone transforms) must reproduce
// the given poses within 1e-4·d. meshrig's rig (Rig: ≤4 influences per
// vertex, joint rotations through the hierarchy) is measured against the
// same poses; its bounds are the measured errors with some margin, and
// they come from the influence cap alone: the joint-rotation clip itself
// must match LBS of the capped skin with the given transforms.

// mustRead opens a (gzip-compressed) shared file and parses it.
func mustRead[T any](t *testing.T, path string, read func(io.Reader) (T, error)) T {
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

// groundTruth is a libigl rig with its animation.
type groundTruth struct {
	name   string
	mesh   *mesh.Mesh
	tgf    *TGF
	w      *Matrix
	frames [][]linalg.Affine // per frame, per bone
	// given are posed meshes made by the data's authors; nil when the
	// data has only transforms.
	given *seq.Sequence
}

// bounds are what a replay must achieve; max%, RMSE% in percent of d.
type bounds struct{ maxPercent, rmsePercent float64 }

func TestWolfPoses(t *testing.T) {
	dir := shareddata.Path(t, "rigs/wolf")
	m, err := format.ReadMesh(filepath.Join(dir, "wolf.obj.gz"))
	if err != nil {
		t.Fatal(err)
	}
	g := groundTruth{name: "wolf", mesh: m, given: seq.New(m),
		tgf: mustRead(t, filepath.Join(dir, "wolf.tgf.gz"), ReadTGF),
		w:   mustRead(t, filepath.Join(dir, "wolf.DMAT.gz"), ReadDMAT)}
	tmats, _ := filepath.Glob(filepath.Join(dir, "poses", "wolf-*.Tmat.gz"))
	if len(tmats) == 0 {
		t.Fatalf("%s/poses holds no .Tmat files", dir)
	}
	for k := 1; k <= len(tmats); k++ {
		base := filepath.Join(dir, "poses", fmt.Sprintf("wolf-%d", k))
		tr, err := Transforms(mustRead(t, base+".Tmat.gz", ReadTable))
		if err != nil {
			t.Fatal(err)
		}
		pose, err := format.ReadMesh(base + ".obj.gz")
		if err != nil {
			t.Fatal(err)
		}
		if err := g.given.AddMesh(pose, filepath.Base(base)); err != nil {
			t.Fatal(err)
		}
		g.frames = append(g.frames, tr)
	}
	replay(t, g, bounds{maxPercent: 2.5, rmsePercent: 0.12})
}

func TestElephantAnimation(t *testing.T) {
	dir := shareddata.Path(t, "rigs/elephant")
	m, err := format.ReadMesh(filepath.Join(dir, "elephant.obj.gz"))
	if err != nil {
		t.Fatal(err)
	}
	g := groundTruth{name: "elephant", mesh: m,
		tgf: mustRead(t, filepath.Join(dir, "elephant.tgf.gz"), ReadTGF),
		w:   mustRead(t, filepath.Join(dir, "elephant-weights.dmat.gz"), ReadDMAT)}
	anim := mustRead(t, filepath.Join(dir, "elephant-anim.dmat.gz"), ReadDMAT)
	if anim.Rows != 12*len(g.tgf.Bones) {
		t.Fatalf("animation has %d rows for %d bones, want 12 per bone", anim.Rows, len(g.tgf.Bones))
	}
	for f := 0; f < anim.Cols; f++ {
		tr, err := AnimationFrame(anim, f)
		if err != nil {
			t.Fatal(err)
		}
		g.frames = append(g.frames, tr)
	}
	// Frame 1 is the rest pose: every transform the identity.
	for k, a := range g.frames[0] {
		if a != linalg.IdentityAffine() {
			t.Fatalf("frame 1 bone %d: %+v, want the identity", k, a)
		}
	}
	replay(t, g, bounds{maxPercent: 4, rmsePercent: 0.25})
}

func TestArm(t *testing.T) {
	dir := shareddata.Path(t, "rigs/arm")
	m, err := format.ReadMesh(filepath.Join(dir, "arm.obj.gz"))
	if err != nil {
		t.Fatal(err)
	}
	g := mustRead(t, filepath.Join(dir, "arm.tgf.gz"), ReadTGF)
	w := mustRead(t, filepath.Join(dir, "arm-weights.dmat.gz"), ReadDMAT)
	checkWeights(t, "arm", w, len(m.Verts), len(g.Bones))
	r, boneJoint, err := Rig(m, g, w)
	if err != nil {
		t.Fatal(err)
	}
	// A chain of four bones from one root point: no synthetic root.
	if len(g.Joints) != 5 || len(g.Bones) != 4 || r.Skeleton.Len() != 4 {
		t.Errorf("arm: %d joints, %d bones → %d rig joints", len(g.Joints), len(g.Bones), r.Skeleton.Len())
	}
	for k, b := range g.Bones {
		if h := r.Skeleton.Joints[boneJoint[k]].Head; h != g.Joints[b[0]] {
			t.Errorf("bone %d: head %v, want its start %v", k, h, g.Joints[b[0]])
		}
	}
	// With the identity on every bone the rig is the rest pose.
	ident := make([]linalg.Affine, len(g.Bones))
	for k := range ident {
		ident[k] = linalg.IdentityAffine()
	}
	sm, err := SkinMatrices(r, boneJoint, ident)
	if err != nil {
		t.Fatal(err)
	}
	d := mesh.Diagonal(m.Verts)
	if e := maxDist(rig.Deform(nil, m.Verts, r.Skin, sm), m.Verts); e > 1e-12*d {
		t.Errorf("identity transforms move the arm by %.3g·d", e/d)
	}
}

// replay checks the data's own LBS against the given poses, then builds
// meshrig's rig and measures it.
func replay(t *testing.T, g groundTruth, want bounds) {
	t.Helper()
	m, d := g.mesh, mesh.Diagonal(g.mesh.Verts)
	checkWeights(t, g.name, g.w, len(m.Verts), len(g.tgf.Bones))
	for f, tr := range g.frames {
		if len(tr) != len(g.tgf.Bones) {
			t.Fatalf("%s frame %d: %d transforms for %d bones", g.name, f+1, len(tr), len(g.tgf.Bones))
		}
	}
	// The layout check: in libigl's convention the transforms of these
	// forward-kinematic animations are rotations, and a bone and its
	// parent agree on where their shared joint goes. Reading the blocks
	// transposed keeps the rotations but tears the joints apart.
	orth, gap := skeletal(g.tgf, g.frames)
	if orth > 1e-5 || gap > 1e-4*d {
		t.Errorf("%s: transforms off rotations by %.3g, joints torn apart by %.3g·d", g.name, orth, gap/d)
	}
	transposed := make([][]linalg.Affine, len(g.frames))
	for f, tr := range g.frames {
		for _, a := range tr {
			transposed[f] = append(transposed[f], linalg.Affine{M: a.M.T(), T: a.T})
		}
	}
	if _, tgap := skeletal(g.tgf, transposed); tgap < 1e-2*d {
		t.Errorf("%s: the transposed layout keeps joints within %.3g·d: the check cannot tell layouts apart", g.name, tgap/d)
	} else {
		t.Logf("%s: read transposed, the transforms would tear joints %.2g·d apart", g.name, tgap/d)
	}

	// The data's own convention: every weight, per-bone transforms.
	exact := seq.New(m)
	for f, tr := range g.frames {
		v, err := Deform(m.Verts, g.w, tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := exact.AddFrame(v, fmt.Sprint(f+1)); err != nil {
			t.Fatal(err)
		}
	}
	truth := g.given
	if truth == nil {
		truth = exact // the transforms are all the data has
	} else if e := maxDist(exact.Frames64(), truth.Frames64()); e > 1e-4*d {
		t.Errorf("%s: libigl LBS with the given weights and transforms is %.3g·d from the given poses", g.name, e/d)
	} else {
		t.Logf("%s: libigl LBS reproduces the %d given poses within %.2g·d", g.name, truth.F(), e/d)
	}

	// meshrig's rig: four influences, joint rotations through the hierarchy.
	r, boneJoint, err := Rig(m, g.tgf, g.w)
	if err != nil {
		t.Fatal(err)
	}
	capped := seq.New(m)
	mats := make([]linalg.Affine, 0, len(g.frames)*r.Skeleton.Len())
	for f, tr := range g.frames {
		sm, err := SkinMatrices(r, boneJoint, tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := capped.AddFrame(rig.Deform(nil, m.Verts, r.Skin, sm), fmt.Sprint(f+1)); err != nil {
			t.Fatal(err)
		}
		mats = append(mats, sm...)
	}
	clip := rig.ClipFromSkinMatrices(&r.Skeleton, "anim", 30, len(g.frames), mats)
	if !clip.Rigid(&r.Skeleton, 1e-4*d) {
		t.Errorf("%s: the clip stretches bones by more than 1e-4·d", g.name)
	}
	clip.MakeRigid(&r.Skeleton)
	r.Clips = []rig.Clip{clip}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	var ours []linalg.Vec3
	for f := range g.frames {
		ours = append(ours, r.Frame(nil, 0, f)...)
	}
	if e := maxDist(ours, capped.Frames64()); e > 1e-5*d {
		t.Errorf("%s: the joint-rotation clip moves vertices %.3g·d from LBS with the transforms it came from", g.name, e/d)
	}
	rep, err := metric.Compare(truth, r)
	if err != nil {
		t.Fatal(err)
	}
	over, dropped := capCost(g.w)
	t.Logf("%s: %d vertices, %d bones, %d frames; rotations within %.1g, joints within %.1g·d; "+
		"%d vertices (%.1f%%) have more than 4 weights above 1e-6, dropping up to %.3f of their weight",
		g.name, len(m.Verts), len(g.tgf.Bones), len(g.frames), orth, gap/d, over, 100*float64(over)/float64(len(m.Verts)), dropped)
	t.Logf("%s: meshrig rig (≤4 influences, skeletal clip) vs the %s: RMSE%% %.4f, Max%% %.3f, normal RMS %.4f",
		g.name, map[bool]string{true: "given poses", false: "exact LBS"}[g.given != nil], rep.RMSEPercent, rep.MaxPercent, rep.NormalRMS)
	if rep.MaxPercent > want.maxPercent || rep.RMSEPercent > want.rmsePercent {
		t.Errorf("%s: RMSE%% %.4f Max%% %.3f, want at most %.4f and %.3f", g.name, rep.RMSEPercent, rep.MaxPercent, want.rmsePercent, want.maxPercent)
	}
}

// checkWeights asserts that libigl weights have one column per bone and
// sum to 1 at every vertex, so LBS with them needs no renormalizing.
func checkWeights(t *testing.T, name string, w *Matrix, verts, bones int) {
	t.Helper()
	if w.Rows != verts || w.Cols != bones {
		t.Fatalf("%s: weights are %d×%d for %d vertices and %d bones", name, w.Rows, w.Cols, verts, bones)
	}
	for i := 0; i < w.Rows; i++ {
		var s float64
		for k := 0; k < w.Cols; k++ {
			s += w.At(i, k)
		}
		if math.Abs(s-1) > 1e-6 {
			t.Fatalf("%s: vertex %d's weights sum to %v", name, i+1, s)
		}
	}
}

// skeletal returns how far the linear parts are from rotations (largest
// entry of AᵀA − I, or of det A − 1) and how far apart a bone and its
// parent carry their shared joint, over every frame.
func skeletal(g *TGF, frames [][]linalg.Affine) (orth, gap float64) {
	ends := make(map[int]int)
	for k := len(g.Bones) - 1; k >= 0; k-- {
		ends[g.Bones[k][1]] = k
	}
	for _, tr := range frames {
		for k, a := range tr {
			ata := a.M.T().Mul(a.M)
			for i := 0; i < 3; i++ {
				ata[i][i]--
				for j := 0; j < 3; j++ {
					orth = math.Max(orth, math.Abs(ata[i][j]))
				}
			}
			orth = math.Max(orth, math.Abs(a.M.Det()-1))
			h := g.Joints[g.Bones[k][0]]
			if p, ok := ends[g.Bones[k][0]]; ok {
				gap = math.Max(gap, a.Apply(h).Dist(tr[p].Apply(h)))
			}
		}
	}
	return orth, gap
}

// capCost counts the vertices with more than four weights above 1e-6 and
// the largest weight sum the four-influence cap drops from one.
func capCost(w *Matrix) (over int, dropped float64) {
	row := make([]float64, w.Cols)
	for i := 0; i < w.Rows; i++ {
		n := 0
		var total, top float64
		for k := range row {
			row[k] = math.Max(w.At(i, k), 0)
			total += row[k]
			if row[k] > 1e-6 {
				n++
			}
		}
		if n <= rig.MaxInfluences {
			continue
		}
		over++
		for c := 0; c < rig.MaxInfluences; c++ {
			best := 0
			for k := range row {
				if row[k] > row[best] {
					best = k
				}
			}
			top += row[best]
			row[best] = -1
		}
		dropped = math.Max(dropped, total-top)
	}
	return over, dropped
}

// maxDist returns the largest distance between matching points.
func maxDist(a, b []linalg.Vec3) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, a[i].Dist(b[i]))
	}
	return m
}

// TestReadMotion: the shared rigs' motions as ReadMotion gives them — the
// wolf's posed meshes, the elephant's animation, none for the arm — and
// the true rig replays each within the bound its four-influence cap
// allows.
func TestReadMotion(t *testing.T) {
	for _, c := range []struct {
		name string
		none bool    // the folder has no motion
		rmse float64 // bound on the truth's own RMSE%
	}{{"wolf", false, 0.2}, {"elephant", false, 0.5}, {"arm", true, 0}} {
		t.Run(c.name, func(t *testing.T) {
			dir := shareddata.Path(t, "rigs/"+c.name)
			m, err := format.ReadMesh(filepath.Join(dir, c.name+".obj.gz"))
			if err != nil {
				t.Fatal(err)
			}
			r, anim, err := ReadMotion(filepath.Join(dir, c.name+".tgf.gz"), m)
			if err != nil {
				t.Fatal(err)
			}
			if c.none {
				if r != nil || anim != nil {
					t.Fatalf("%s has no motion, got a rig", c.name)
				}
				return
			}
			if r == nil || anim.F() < 2 || len(r.Clips) != 1 || r.Clips[0].Frames != anim.F() {
				t.Fatalf("rig %v, frames %d", r != nil, anim.F())
			}
			rep, err := metric.Compare(anim, r)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d frames, the truth replays them at RMSE%% %.3f", c.name, anim.F(), rep.RMSEPercent)
			if rep.RMSEPercent > c.rmse {
				t.Errorf("RMSE%% %.3f, want ≤ %g", rep.RMSEPercent, c.rmse)
			}
		})
	}
}
