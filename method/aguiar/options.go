package aguiar

import "github.com/meshrig/meshrig/method"

// Options controls the method. The zero value gives the defaults.
type Options struct {
	// SeedFraction is the share of vertices used as seeds, 0.003–0.01 in
	// the paper. Default 0.01, with at least 200 seeds (the paper's meshes
	// have 7k–106k triangles; a 4k-vertex hand needs that many to part
	// its fingers' bones) and at most 400.
	SeedFraction float64
	// Variation is the share of the seeds' articulated motion (what one
	// rigid motion of all of them leaves) that the groups' rigid motions
	// must explain (§4: "about 99% of the total variation"), in (0, 1].
	// Default 0: each of 99%, 99.5%, 99.8% and 99.9% is tried and the
	// segmentation whose rig, made quickly, reproduces the input best is
	// kept.
	Variation float64
	// MaxBones caps the number of patches. Default 48.
	MaxBones int
	// MinTurn removes a patch whose motion a neighbour's, or a per-vertex
	// blend of two neighbours', reproduces in every frame to within this
	// fraction of the patch's size (about an angle in radians): parts
	// that never turn apart, and the bands where the skin blends across a
	// joint. Default 0.1; negative keeps every patch.
	MinTurn float64
	// Alpha weighs the pull of a joint toward its boundary's centroid
	// (Eq. 2). Default 0.05.
	Alpha float64
	// MaxInfluences per vertex, 1 to 4. Default 4.
	MaxInfluences int
	// HeatFrames bounds the frames whose heat solutions are averaged,
	// spread over the motion (§7 averages every frame; on the shared data
	// 24 give the same rigs to the third decimal of ACCU in half the
	// time). Default 24; negative: every frame.
	HeatFrames int
	// Refine is the number of rounds fitting the rig's rotations and
	// weights to the input after the paper's steps (beyond the paper):
	// the joints stay where Eq. 2 put them, each vertex keeps the bones
	// its heat weights chose, and the weights are pulled toward the heat
	// weights. Default 3; negative keeps the paper's motion and weights.
	Refine int
	// Seed makes k-means repeatable. Default 1.
	Seed uint64
	// Progress and Notes may be nil.
	Progress method.Progress
	Notes    method.Notes
}

func (o Options) withDefaults() Options {
	if o.SeedFraction <= 0 {
		o.SeedFraction = 0.01
	}
	if o.MinTurn == 0 {
		o.MinTurn = 0.1
	}
	if o.MaxBones <= 0 {
		o.MaxBones = 48
	}
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	if o.MaxInfluences <= 0 || o.MaxInfluences > 4 {
		o.MaxInfluences = 4
	}
	if o.HeatFrames == 0 {
		o.HeatFrames = 24
	}
	if o.Refine == 0 {
		o.Refine = 3
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// defaultLevels are the variation levels tried by default: from the
// paper's 99%, which leaves bones of small parts unsplit, to 99.9%, which
// splits every part that turns (the blends between them then go again by
// MinTurn).
var defaultLevels = []float64{0.99, 0.995, 0.998, 0.999}

// levels returns the variation levels to try.
func (o Options) levels() []float64 {
	if o.Variation > 0 {
		return []float64{o.Variation}
	}
	return defaultLevels
}
