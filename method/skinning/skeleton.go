package skinning

import "context"

// FitSkeleton fits the joint-rotation rig itself: iterations rounds of
// exact hierarchical rotations (FitRotations), joint positions
// (FitJoints) and then updateWeights, the method's own weight solve
// against the current transforms (nil skips it). The transforms must be
// skeletal already (Constrain) and stay so. progress may be nil.
func (m *Model) FitSkeleton(ctx context.Context, h *Hierarchy, iterations int, updateWeights func(), progress func(done, total int)) error {
	for it := 0; it < iterations; it++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.FitRotations(*h, fitSweeps)
		m.FitJoints(h)
		if updateWeights != nil {
			updateWeights()
		}
		if progress != nil {
			progress(it+1, iterations)
		}
	}
	return nil
}

// fitSweeps bounds the rotation sweeps of each FitSkeleton round; a frame
// stops early once its rotations settle (rotationTol), and a sweep costs
// O(B²), not O(N), so a generous bound is cheap.
const fitSweeps = 30
