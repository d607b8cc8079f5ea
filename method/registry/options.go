package registry

import (
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/ledeng"
	"github.com/meshrig/meshrig/method/refit"
)

// Options is every method's options in one struct; a zero field means the
// method's own default (Entry.Params lists, per method, the fields it
// reads and their defaults). Each Entry maps it to its package's Options.
type Options struct {
	// Bones is the bone count asked for: ledeng gives this many (fewer
	// only when the motion has fewer moving parts, with a note),
	// spectral prunes to at most this many, face-clustering stops
	// clustering at exactly this many (Tolerance ignored). 0: as many as
	// the motion needs.
	Bones int
	// InitBones is ledeng's over-estimated initial cluster count (32).
	InitBones int
	// Search is where ledeng finds the skeleton (ledeng.Options.Search:
	// the coarsened mesh when Bones is set, else every vertex).
	Search ledeng.Search
	// Iterations: ledeng's rigging iterations (20); Refit's rounds (20).
	Iterations int
	// MaxInfluences per vertex, 1 to 4 (4).
	MaxInfluences int
	// Free skips the skeleton (--skeleton none): free bones, lowest error
	// (ledeng and face-clustering; spectral always builds a skeleton).
	Free bool
	// Refitted says the caller fits every frame's motion again after Rig
	// (rig --stretch): ledeng skips its last per-frame rotation fit.
	Refitted bool
	// Seed makes randomized steps repeatable (1).
	Seed uint64
	// Tolerance is face-clustering's merge stop, RMS fit error in % of
	// the diagonal (0.6); used when Bones is 0.
	Tolerance float64
	// Lloyd is face-clustering's Lloyd refinement passes (0).
	Lloyd int
	// AreaWeighted weighs face-clustering's skeleton votes by vertex area.
	AreaWeighted bool

	// Joints is the static methods' joint count: contraction's (24), and
	// forcefield's when set (0: as many as the shape gives).
	Joints int
	// Detail keeps the static methods' detail branches (ears, horns,
	// bumps) that would be folded into their parent.
	Detail bool
	// NoSymmetry keeps a static skeleton asymmetric on a symmetric mesh.
	NoSymmetry bool
	// VoxelSize is forcefield's voxel edge as a fraction of the longest
	// bounding-box side (1/64).
	VoxelSize float64
	// Weights is the static methods' skin-weight scheme (method/
	// skinweights: heat, geodesic, distance, rigid; "" is heat); also the
	// scheme a static Refit solves again.
	Weights string

	// Solve is what an animation Refit fits (refit.Both: weights and
	// motion); RefineJoints lets it move the joints' rest positions.
	Solve        refit.Solve
	RefineJoints bool

	// Progress and Notes may be nil.
	Progress method.Progress
	Notes    method.Notes
}

// refitOptions maps o to method/refit's options.
func (o Options) refitOptions() refit.Options {
	return refit.Options{
		MaxInfluences: o.MaxInfluences,
		Iterations:    o.Iterations,
		Solve:         o.Solve,
		RefineJoints:  o.RefineJoints,
		Progress:      o.Progress,
		Notes:         o.Notes,
	}
}
