package stretch

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// TestCentring: 12000 units from the origin (a tube of length 3), a
// frame's error from the skin's sums is the replayed one to 1e-6 once
// the rig and frame are centred, where uncentred it is off by more than
// 1e-3 of itself; and shift then unshift gives the rig back.
func TestCentring(t *testing.T) {
	r := testrig.Tube(t, 24, linalg.Vec3{10000, -5000, 3000})
	s := testrig.Play(t, r)
	nj := r.Skeleton.Len()
	// Off the target: every frame's middle joint turned a little.
	c := &r.Clips[0]
	for f := 0; f < c.Frames; f++ {
		c.Rotation[f*nj+1] = c.Rotation[f*nj+1].Mul(linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, 0.001)).Normalize()
	}
	relErr := func(w *rig.Rig, at []linalg.Vec3) float64 {
		fr := newFitter(w, false)
		sc := fr.scratch()
		var worst float64
		for f := 0; f < c.Frames; f += 5 {
			y := s.FrameInto(nil, f)
			for i := range y {
				y[i] = y[i].Sub(at[f])
			}
			sc.t.set(w, y)
			cl := &w.Clips[0]
			st := frameOf(cl, f, nj)
			got := fr.sse(st, sc)
			var want float64
			for i, v := range replay(fr, st, sc) {
				want += v.Sub(y[i]).Norm2()
			}
			worst = max(worst, math.Abs(got-want)/want)
		}
		return worst
	}
	copyOf := func() *rig.Rig {
		w := *r
		w.Clips = []rig.Clip{*c}
		w.Clips[0].Rotation = append([]linalg.Quat(nil), c.Rotation...)
		w.Clips[0].Translation = append([]linalg.Vec3(nil), c.Translation...)
		return &w
	}
	cen := newCentring(r, s)
	w := copyOf()
	cen.shift(w)
	centred := relErr(w, cen.frames)
	plain := relErr(copyOf(), make([]linalg.Vec3, s.F()))
	t.Logf("error from the sums against replayed, relative: centred %.2g, uncentred %.2g", centred, plain)
	if centred > 1e-6 || plain < 1e-3 {
		t.Errorf("relative error: centred %.3g (want ≤ 1e-6), uncentred %.3g (the case centring is for: want ≥ 1e-3)", centred, plain)
	}
	cen.unshift(w, r)
	if w.Mesh != r.Mesh || &w.Skeleton.Joints[0] != &r.Skeleton.Joints[0] {
		t.Error("unshift did not give the rig's own mesh and skeleton back")
	}
	for k, v := range w.Clips[0].Translation {
		if d := v.Dist(c.Translation[k]); d > 1e-9 {
			t.Fatalf("translation %d: %v after shift and unshift, %v before", k, v, c.Translation[k])
		}
	}
}
