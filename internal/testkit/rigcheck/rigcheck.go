// Package rigcheck holds, for tests, the checks every mesh-animation
// method's rig must pass — a valid skeletal rig whose every vertex has one
// to four non-negative weights summing to 1, one clip per input clip —
// and the shared tests on seamed input: generated characters cut along
// seams, and the skinned glTF characters of the shared data.
package rigcheck

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Check fails tb unless r is a valid skeletal rig of s with at most four
// influences per vertex summing to 1 and one clip per input clip; it
// returns r's errors on s.
func Check(tb testing.TB, s *seq.Sequence, r *rig.Rig) metric.Report {
	tb.Helper()
	if err := r.Validate(); err != nil {
		tb.Fatal(err)
	}
	if !r.Skeletal() {
		tb.Error("bones are not rigid")
	}
	for i, in := range r.Skin {
		n, sum := 0, 0.0
		for _, w := range in.Weight {
			if w < 0 {
				tb.Fatalf("vertex %d: negative weight", i)
			}
			if w > 0 {
				n++
			}
			sum += w
		}
		if n == 0 || n > 4 || math.Abs(sum-1) > 1e-9 {
			tb.Fatalf("vertex %d: %d influences summing to %v", i, n, sum)
		}
	}
	if len(r.Clips) != len(s.Clips) {
		tb.Fatalf("%d clips, want %d", len(r.Clips), len(s.Clips))
	}
	rep, err := metric.Compare(s, r)
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}
