package stretch

import (
	"context"
	"math"
	"reflect"
	"runtime"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// squashTube is testrig's bending tube whose middle joint also scales
// along the bone (local x) by up to ±35% per frame.
func squashTube(t *testing.T) *rig.Rig {
	return testrig.SquashTube(t, 24, linalg.Vec3{}, testrig.AlongBone)
}

// rotationOnly is r with its first clip's scale tracks dropped (the clip
// shared, not copied).
func rotationOnly(r *rig.Rig) rig.Rig {
	start := *r
	start.Clips = []rig.Clip{r.Clips[0]}
	start.Clips[0].Scale = nil
	return start
}

// TestFitRecoversSquash: from the tube's rotation-only clip (scale tracks
// dropped), Fit recovers the squash: 7.30 → below 1e-5 RMSE% at the
// defaults (the sweeps alone stall at 0.48, where the squashing joint's
// scale and its child's share the child's head; the joint-wide
// Levenberg–Marquardt steps move them together — 0.18 while their normal
// equations lacked the blocks between joints). The true scales are a
// fixed point (TestFitKeepsTruth).
func TestFitRecoversSquash(t *testing.T) {
	truth := squashTube(t)
	s := testrig.Play(t, truth)
	start := rotationOnly(truth)
	before, err := metric.Compare(s, &start)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Fit(context.Background(), &start, s, Options{WeightRounds: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	after, err := metric.Compare(s, got)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("RMSE%%: rotation-only %.4f, fitted scale %.5f", before.RMSEPercent, after.RMSEPercent)
	if !(after.RMSEPercent < 0.01) || !(before.RMSEPercent > 5) {
		t.Errorf("RMSE%% %.5f from %.4f: want under 0.01 from over 5", after.RMSEPercent, before.RMSEPercent)
	}
	if start.Clips[0].Scale != nil {
		t.Error("Fit changed its input rig")
	}
}

// TestFitTolerance: a looser Tolerance ends each frame's steps earlier,
// so the squashing tube is fitted less closely than at the default (but
// far closer than without scales); tolerances outside [0, 1) are refused.
func TestFitTolerance(t *testing.T) {
	truth := squashTube(t)
	s := testrig.Play(t, truth)
	start := rotationOnly(truth)
	rmse := func(tol float64) float64 {
		got, err := Fit(context.Background(), &start, s, Options{WeightRounds: -1, Tolerance: tol})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := metric.Compare(s, got)
		if err != nil {
			t.Fatal(err)
		}
		return rep.RMSEPercent
	}
	// The exact tube's first step gains over 99% of a frame's error; a
	// tolerance of 0.999 stops there.
	def, loose := rmse(0), rmse(0.999)
	t.Logf("RMSE%%: default %.3g, tolerance 0.999 %.3g", def, loose)
	if !(loose > 100*def) || !(loose < 1) {
		t.Errorf("tolerance 0.999: RMSE%% %.3g, default %.3g: want over a hundred times the default, under 1", loose, def)
	}
	for _, tol := range []float64{-1e-3, 1, math.NaN()} {
		if _, err := Fit(context.Background(), &start, s, Options{Tolerance: tol}); err == nil {
			t.Errorf("tolerance %v accepted", tol)
		}
	}
}

// TestFitKeepsTruth: started from the true scaled motion, Fit stays there
// (weights solved again included).
func TestFitKeepsTruth(t *testing.T) {
	truth := squashTube(t)
	s := testrig.Play(t, truth)
	got, err := Fit(context.Background(), truth, s, Options{Rounds: 2, WeightRounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := metric.Compare(s, got)
	if err != nil {
		t.Fatal(err)
	}
	if rep.RMSEPercent > 1e-5 { // float32 frames: their rounding
		t.Errorf("RMSE%% %.3g from the true motion", rep.RMSEPercent)
	}
}

// TestFitRefusesMismatch: a sequence of other sizes is an error.
func TestFitRefusesMismatch(t *testing.T) {
	r := squashTube(t)
	s := testrig.Play(t, testrig.Tube(t, 5, linalg.Vec3{}))
	if _, err := Fit(context.Background(), r, s, Options{}); err == nil {
		t.Error("24 frames of rig fitted to 5 frames")
	}
}

// TestFitDeterministic: the same clips and skin at any GOMAXPROCS.
func TestFitDeterministic(t *testing.T) {
	truth := squashTube(t)
	s := testrig.Play(t, truth)
	start := rotationOnly(truth)
	var got []*rig.Rig
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		r, err := Fit(context.Background(), &start, s, Options{Rounds: 1, WeightRounds: 1})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	for k := 1; k < len(got); k++ {
		if !reflect.DeepEqual(got[0].Clips, got[k].Clips) || !reflect.DeepEqual(got[0].Skin, got[k].Skin) {
			t.Fatalf("GOMAXPROCS %d differs from 1", k+1)
		}
	}
}

// TestFitKeepsPlacement: the squashing tube under a weightless placement
// joint that moves it (a scene's armature node): Fit recovers the squash
// as without it, and the placement joint's motion comes back as it was —
// the root translation moves the body's root instead.
func TestFitKeepsPlacement(t *testing.T) {
	tube := squashTube(t)
	nj := tube.Skeleton.Len() + 1
	truth := *tube
	truth.Skeleton.Joints = append([]rig.Joint{{Name: "placement", Parent: rig.NoParent}}, tube.Skeleton.Joints...)
	for j := 1; j < nj; j++ {
		truth.Skeleton.Joints[j].Parent++
	}
	truth.Skeleton.Joints[1].Parent = 0
	truth.Skin = make(rig.Skin, len(tube.Skin))
	for i, in := range tube.Skin {
		for k := range in.Joint {
			if in.Weight[k] > 0 {
				in.Joint[k]++
			}
		}
		truth.Skin[i] = in
	}
	src := &tube.Clips[0]
	c := rig.NewClip(&truth.Skeleton, src.Name, src.FPS, src.Frames)
	c.Scale = make([]linalg.Vec3, c.Frames*nj)
	for f := 0; f < c.Frames; f++ {
		a := 2 * math.Pi * float64(f) / float64(c.Frames)
		c.Rotation[f*nj] = linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 0}, 0.3*math.Sin(a))
		c.Translation[f*nj] = linalg.Vec3{0.2 * math.Cos(a), 0, 0.1}
		c.Scale[f*nj] = linalg.Vec3{1, 1, 1}
		for j := 1; j < nj; j++ {
			c.Rotation[f*nj+j] = src.Rotation[f*(nj-1)+j-1]
			c.Translation[f*nj+j] = src.Translation[f*(nj-1)+j-1]
			c.Scale[f*nj+j] = src.Scale[f*(nj-1)+j-1]
		}
	}
	truth.Clips = []rig.Clip{c}
	if err := truth.Validate(); err != nil {
		t.Fatal(err)
	}
	s := testrig.Play(t, &truth)
	start := rotationOnly(&truth)
	got, err := Fit(context.Background(), &start, s, Options{WeightRounds: -1})
	if err != nil {
		t.Fatal(err)
	}
	after, err := metric.Compare(s, got)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("RMSE%% with the placement joint: %.5f", after.RMSEPercent)
	if !(after.RMSEPercent < 0.01) {
		t.Errorf("RMSE%% %.5f: want under 0.01", after.RMSEPercent)
	}
	g := &got.Clips[0]
	for f := 0; f < c.Frames; f++ {
		// The translation to float64's rounding: centring (centre.go)
		// moves it and moves it back.
		if g.Rotation[f*nj] != c.Rotation[f*nj] || g.Translation[f*nj].Dist(c.Translation[f*nj]) > 1e-12 || g.ScaleAt(f, 0, nj) != (linalg.Vec3{1, 1, 1}) {
			t.Fatalf("frame %d: the placement joint moved: %v %v %v", f, g.Rotation[f*nj], g.Translation[f*nj], g.ScaleAt(f, 0, nj))
		}
	}
}
