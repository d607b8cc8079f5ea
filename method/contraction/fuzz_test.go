package contraction

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/fuzzmesh"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

// FuzzSkeleton skeletonizes the small tubes fuzzmesh makes from the fuzz
// bytes (thin, flat, pinched, self-intersecting), as they are (no
// subdivision) and asking for 2–9 joints: Skeleton must answer within
// fuzzmesh.Deadline with a valid skeleton inside the mesh's bounding box
// or an error, and never panic.
func FuzzSkeleton(f *testing.F) {
	for _, seed := range fuzzmesh.Seeds() {
		f.Add(byte(4), seed)
	}
	f.Fuzz(func(t *testing.T, joints byte, data []byte) {
		fuzzmesh.CheckSkeleton(t, data, func(ctx context.Context, m *mesh.Mesh) (*static.Skeleton, error) {
			return Skeleton(ctx, m, Options{Joints: 2 + int(joints%8), MinVertices: -1})
		})
	})
}
