package schaefer

import "github.com/meshrig/meshrig/method"

// Options controls the method. The zero value gives the defaults.
type Options struct {
	// Bones stops face clustering at this many clusters (bones). 0 stops
	// by Tolerance instead. Bones that then carry less than one vertex's
	// weight are dropped.
	Bones int
	// Tolerance stops clustering before a merge whose cluster would fit
	// its poses worse than this RMS distance, in percent of the rest
	// pose's bounding-box diagonal. Default 0.6 (used when Bones is 0).
	Tolerance float64
	// MaxBones keeps merging past Tolerance while more clusters than this
	// remain (used when Bones is 0). Default 40; negative disables.
	MaxBones int
	// Lloyd runs this many Lloyd refinement passes over the clusters.
	Lloyd int
	// MaxInfluences per vertex, 1 to 4. Default 4.
	MaxInfluences int
	// AreaWeighted weighs the connectivity graph's votes by the area
	// around each vertex (§5.1's option).
	AreaWeighted bool
	// Refine is the number of rounds fitting the exported skeletal rig
	// (rotations, joints, weights). Default 5; negative skips.
	Refine int
	// Free skips the skeleton and returns the clusters' free transforms.
	Free bool
	// Progress and Notes may be nil.
	Progress method.Progress
	Notes    method.Notes
}

func (o Options) withDefaults() Options {
	if o.Tolerance <= 0 {
		o.Tolerance = 0.6
	}
	if o.MaxBones == 0 {
		o.MaxBones = 40
	}
	if o.MaxInfluences <= 0 || o.MaxInfluences > 4 {
		o.MaxInfluences = 4
	}
	if o.Refine == 0 {
		o.Refine = 5
	}
	return o
}
