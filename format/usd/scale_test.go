package usd

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// squashTube is testrig's tube whose middle joint also scales, per frame
// and non-uniformly (a clip of meshrig rig --stretch).
func squashTube(t testing.TB) *rig.Rig {
	return testrig.SquashTube(t, 24, linalg.Vec3{0.3, -0.2, 0.1}, testrig.KeepArea)
}

// halfTol is the largest rounding of a half (11 significant bits) of a
// scale up to 2.
const halfTol = 1.0 / 1024

// TestScaleTracks: a rig with scale tracks is written with them (sampled
// half3 scales) in text and binary, and read back with every scale
// within a half's rounding and a replay within what that rounding moves
// the tube (RMSE% 0.01).
func TestScaleTracks(t *testing.T) {
	r := squashTube(t)
	for _, c := range codecs {
		t.Run(c.name, func(t *testing.T) {
			got := writeReadAs(t, r, c)
			if !got.HasScale() {
				t.Fatal("no scale tracks read back")
			}
			a, b := &got.Clips[0], &r.Clips[0]
			for k := range b.Scale {
				for i := range 3 {
					if d := math.Abs(a.Scale[k][i] - b.Scale[k][i]); d > halfTol {
						t.Fatalf("entry %d: scale %v, want %v", k, a.Scale[k], b.Scale[k])
					}
				}
			}
			rep, err := metric.Compare(character.Sequence(r), got)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("replay RMSE%% %.3g, Max%% %.3g", rep.RMSEPercent, rep.MaxPercent)
			if !(rep.RMSEPercent <= 0.01) {
				t.Errorf("the rig read replays the rig written at RMSE%% %g", rep.RMSEPercent)
			}
		})
	}
}

// TestConstantScales: a constant scale other than 1 is a scale track
// too, the same at every frame; constant 1 is none.
func TestConstantScales(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "tiny.usda"))
	if err != nil {
		t.Fatal(err)
	}
	const ones = "half3[] scales = [(1, 1, 1), (1, 1, 1)]"
	if !bytes.Contains(base, []byte(ones)) {
		t.Fatalf("tiny.usda has no %q", ones)
	}
	for _, tc := range []struct {
		scales string
		want   linalg.Vec3
	}{{ones, linalg.Vec3{1, 1, 1}}, {"half3[] scales = [(1, 1, 1), (1.5, 1, 1)]", linalg.Vec3{1.5, 1, 1}}} {
		got, err := Read(bytes.NewReader(bytes.Replace(base, []byte(ones), []byte(tc.scales), 1)))
		if err != nil {
			t.Fatal(err)
		}
		if got.HasScale() != (tc.want != linalg.Vec3{1, 1, 1}) {
			t.Fatalf("%s: scale tracks %v", tc.scales, got.HasScale())
		}
		c := &got.Clips[0]
		for f := 0; f < c.Frames; f++ {
			if s := c.ScaleAt(f, 1, got.Skeleton.Len()); s != tc.want {
				t.Fatalf("%s, frame %d: joint 1 scales by %v, want %v", tc.scales, f, s, tc.want)
			}
		}
	}
}

// TestScaleOutsideHalf: scales beyond a half's range are written at its
// limits, so the layer reads back with finite, positive scales.
func TestScaleOutsideHalf(t *testing.T) {
	r := squashTube(t)
	c := &r.Clips[0]
	nj := r.Skeleton.Len()
	c.Scale[nj+1] = linalg.Vec3{1e-9, 1e9, 1}
	for _, codec := range codecs {
		got := writeReadAs(t, r, codec)
		s, want := got.Clips[0].ScaleAt(1, 1, nj), linalg.Vec3{0x1p-14, 65504, 1}
		for i := range 3 {
			if math.Abs(s[i]-want[i]) > 1e-7*want[i] { // the text holds float32's digits
				t.Errorf("%s: scale (1e-9, 1e9, 1) read back as %v, want %v", codec.name, s, want)
			}
		}
	}
}

// TestSampledOnes: scales sampled but 1 throughout read back as a
// rotation-only clip.
func TestSampledOnes(t *testing.T) {
	r := squashTube(t)
	for k := range r.Clips[0].Scale {
		r.Clips[0].Scale[k] = linalg.Vec3{1, 1, 1}
	}
	for _, codec := range codecs {
		if got := writeReadAs(t, r, codec); got.HasScale() {
			t.Errorf("%s: scales of 1 read back as scale tracks", codec.name)
		}
	}
}
