package viewer

import (
	"context"

	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/method/registry"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Refit returns the project's re-solve (package method/refit) as a
// Solver: for an animation rig, registry.RefitAnimation fits weights and
// joint motion to the input with the skeleton fixed (and scale tracks
// again when the rig has them); for a static rig,
// refit.Static binds the skin again with the weight scheme named weights
// ("" is bone heat). o's Progress is replaced by the server's.
func Refit(weights string, o refit.Options) Solver {
	return func(ctx context.Context, r *rig.Rig, in *seq.Sequence, progress method.Progress) (*rig.Rig, error) {
		o.Progress = progress
		if in == nil {
			progress("binding", 0, 1)
			out, err := refit.Static(ctx, r, weights, o)
			if err == nil {
				progress("binding", 1, 1)
			}
			return out, err
		}
		out, _, err := registry.RefitAnimation(ctx, r, in, o)
		return out, err
	}
}
