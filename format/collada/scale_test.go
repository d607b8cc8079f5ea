package collada

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

// TestScaleRoundTrip: a rig with scale tracks (--stretch: per joint, frame
// and local axis, inherited by the children) is written in both versions
// with the scale in the joints' matrices and read back with the same
// tracks, replaying the same frames.
func TestScaleRoundTrip(t *testing.T) {
	r := testrig.Tube(t, 12, linalg.Vec3{1, 2, 3})
	nj := r.Skeleton.Len()
	c := &r.Clips[0]
	c.Scale = make([]linalg.Vec3, c.Frames*nj)
	for f := 0; f < c.Frames; f++ {
		x := 2 * math.Pi * float64(f) / float64(c.Frames)
		for j := 0; j < nj; j++ {
			c.Scale[f*nj+j] = linalg.Vec3{1 + 0.3*math.Sin(x+float64(j)), 1 - 0.2*math.Sin(x), 1}
		}
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"1.4.1", "1.5"} {
		sc := writeRead(t, r, version, format.SceneOptions{})
		got := sc.Rig
		if len(got.Clips) != 1 || !got.Clips[0].HasScale() {
			t.Fatalf("%s: read back without scale tracks", version)
		}
		g := &got.Clips[0]
		for k, want := range c.Scale {
			if d := g.Scale[k].Sub(want); math.Abs(d[0])+math.Abs(d[1])+math.Abs(d[2]) > 1e-5 {
				t.Fatalf("%s: frame %d joint %d scale %v, want %v", version, k/nj+1, k%nj, g.Scale[k], want)
			}
		}
		played, err := metric.Compare(sc.Sequence, got)
		if err != nil {
			t.Fatal(err)
		}
		orig, err := metric.Compare(sc.Sequence, r)
		if err != nil {
			t.Fatal(err)
		}
		if played.MaxPercent > 1e-4 || orig.MaxPercent > 1e-4 {
			t.Errorf("%s: the rig read plays the file's frames within %.3g%% of d, the rig written within %.3g%%", version, played.MaxPercent, orig.MaxPercent)
		}
	}
}
