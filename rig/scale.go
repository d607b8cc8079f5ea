package rig

// HasScale reports whether any clip of r has scale tracks.
func (r *Rig) HasScale() bool {
	for k := range r.Clips {
		if r.Clips[k].HasScale() {
			return true
		}
	}
	return false
}
