// Package method holds what every rigging method shares: the common
// options, progress reporting, and the normalization of an animation into
// the unit sphere that the methods' parameters are defined in.
//
// Each method lives in its own package (method/ledeng, …) with a function
//
//	Rig(ctx context.Context, s *seq.Sequence, opt Options) (*rig.Rig, error)
//
// returning a skeletal rig whose clips follow s.Clips.
package method
