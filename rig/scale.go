package rig

import "errors"

// ErrScaleTracks is what a writer whose format does not carry scale
// tracks (rig.Clip.Scale) returns rather than drop them.
var ErrScaleTracks = errors.New("this rig has scale tracks (--stretch): write .glb, .gltf or .dae")

// HasScale reports whether any clip of r has scale tracks.
func (r *Rig) HasScale() bool {
	for k := range r.Clips {
		if r.Clips[k].HasScale() {
			return true
		}
	}
	return false
}

// RotationOnly returns ErrScaleTracks when some clip of r has scale
// tracks: the check of the writers that cannot write them.
func (r *Rig) RotationOnly() error {
	if r.HasScale() {
		return ErrScaleTracks
	}
	return nil
}
