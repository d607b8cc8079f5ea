package forcefield

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/fuzzmesh"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

// FuzzSkeletonTube skeletonizes the small closed tubes fuzzmesh makes
// from the fuzz bytes (thin, flat, pinched, self-intersecting), at a
// coarse voxel size and 16 rays per voxel so each input is quick:
// Skeleton must answer within fuzzmesh.Deadline with a valid skeleton
// inside the mesh's bounding box or an error, and never panic.
// (FuzzSkeleton feeds it arbitrary triangles instead.)
func FuzzSkeletonTube(f *testing.F) {
	for _, seed := range fuzzmesh.Seeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzmesh.CheckSkeleton(t, data, func(ctx context.Context, m *mesh.Mesh) (*static.Skeleton, error) {
			return Skeleton(ctx, m, Options{VoxelSize: 1.0 / 8, Rays: 16})
		})
	})
}
