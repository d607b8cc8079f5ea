package metric

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/seq"
)

// TestComparePlayback: a playback measured against an animation gives the
// figures Compare gives for a rig that plays the same frames.
func TestComparePlayback(t *testing.T) {
	r := square(t, 2)
	s := seq.New(r.Mesh)
	_ = s.AddFrame(r.Mesh.Verts, "a")
	moved := append([]linalg.Vec3(nil), r.Mesh.Verts...)
	moved[2][2] += 0.1
	_ = s.AddFrame(moved, "b")
	played := seq.New(r.Mesh)
	_ = played.AddFrame(r.Mesh.Verts, "a")
	_ = played.AddFrame(r.Mesh.Verts, "b")
	got, err := ComparePlayback(s, played)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Compare(s, r)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.RMSEPercent-want.RMSEPercent) > 1e-12 || math.Abs(got.MaxPercent-want.MaxPercent) > 1e-12 ||
		math.Abs(got.NormalRMS-want.NormalRMS) > 1e-12 || got.Frames != 2 || got.Vertices != 4 {
		t.Errorf("playback %+v, rig %+v", got, want)
	}
	off := float64(float32(0.1)) // the offset as the frames hold it
	if wantRMSE := 100 * math.Sqrt(off*off/8) / math.Sqrt2; math.Abs(got.RMSEPercent-wantRMSE) > 1e-12 {
		t.Errorf("RMSE%% = %v, want %v", got.RMSEPercent, wantRMSE)
	}
	self, err := ComparePlayback(s, s)
	if err != nil || self.RMSEPercent != 0 || self.MaxPercent != 0 {
		t.Errorf("a sequence against itself: %+v, %v", self, err)
	}
	short := seq.New(r.Mesh)
	_ = short.AddFrame(r.Mesh.Verts, "a")
	if _, err := ComparePlayback(s, short); err == nil {
		t.Error("a playback with fewer frames was measured")
	}
}
