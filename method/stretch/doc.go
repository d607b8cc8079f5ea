// Package stretch adds squash and stretch to a finished skeletal rig: per
// joint and per frame a uniform scale in the joint's local frame (a glTF
// `scale` channel, rig.Clip.Scale), fitted to the sequence by least
// squares with the joint rotations and root translation fitted again
// around it (meshrig rig --stretch).
//
// It runs after an animation method (input → sequence → method → rig →
// stretch.Fit → writer) and keeps the skeleton, the skin and the rest
// offsets: only the clips change.
//
//	r, err := ledeng.Rig(ctx, s, ledeng.Options{Bones: 11})
//	r, err = stretch.Fit(ctx, r, s, stretch.Options{})
package stretch
