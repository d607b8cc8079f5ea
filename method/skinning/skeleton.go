package skinning

import "context"

// FitSkeleton fits the joint-rotation rig itself: iterations rounds of
// exact hierarchical rotations (FitRotations), joint positions
// (FitJoints) and then updateWeights, the method's own weight solve
// against the current transforms (nil skips it). The transforms must be
// skeletal already (Constrain) and stay so. progress may be nil.
func (m *Model) FitSkeleton(ctx context.Context, h *Hierarchy, iterations int, updateWeights func(), progress func(done, total int)) error {
	return m.FitSkeletonUntil(ctx, h, iterations, FitSweeps, 0, updateWeights, progress)
}

// FitSkeletonUntil is FitSkeleton with at most sweeps rotation sweeps a
// round (FitSkeleton: 10) that also stops once a round lowers the
// data term (Eq. 3b, after its rotation fit) by less than the fraction tol
// of its value: the
// rounds converge slowly and steadily, so tol trades accuracy for time.
// tol ≤ 0 runs every round.
func (m *Model) FitSkeletonUntil(ctx context.Context, h *Hierarchy, iterations, sweeps int, tol float64, updateWeights func(), progress func(done, total int)) error {
	prev := -1.0
	for it := 0; it < iterations; it++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := m.FitRotations(*h, sweeps)
		m.FitJoints(h)
		if updateWeights != nil {
			updateWeights()
		}
		if progress != nil {
			progress(it+1, iterations)
		}
		// The error after the rotations, measured at the same point of
		// every round.
		if tol > 0 {
			if prev >= 0 && prev-e < tol*prev {
				break
			}
			prev = e
		}
	}
	return nil
}

// FitSweeps bounds the rotation sweeps of each FitSkeleton round; a frame
// stops early once its rotations settle (rotationTol), and a sweep costs
// O(B²), not O(N), so a generous bound is cheap.
const FitSweeps = 10
