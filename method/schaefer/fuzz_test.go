package schaefer

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/fuzzmesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// FuzzRig rigs the small animated tubes fuzzmesh makes from the fuzz
// bytes (thin, flat, pinched, self-intersecting, noisy): Rig must answer
// within fuzzmesh.Deadline with a rig that passes rigcheck.Check or an
// error, and never panic.
func FuzzRig(f *testing.F) {
	for _, seed := range fuzzmesh.Seeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzmesh.CheckRig(t, data, func(ctx context.Context, s *seq.Sequence) (*rig.Rig, error) {
			return Rig(ctx, s, Options{})
		})
	})
}
