package forcefield

import "github.com/meshrig/meshrig/internal/par"

// tipKeeper marks the interior voxels where thinning may keep the end
// of a curve: medial points outside plates. A voxel is medial when no
// neighbour's ball (radius: the recorded distance to the surface)
// contains its own, i.e. it is the centre of a maximal ball; ball q
// contains ball p when r_q − r_p ≥ |p − q|, tested with 0.8·|p − q|
// because the recorded distance comes from a finite set of rays. In a
// plate (see flat) the medial points form a whole sheet, which would
// sprout a curve end wherever thinning happens to expose one.
func (f *field) tipKeeper() []bool {
	out := make([]bool, len(f.vox))
	par.For(len(f.vox), 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			id := int(f.vox[i])
			out[i] = true
			for k, o := range f.g.off {
				j := f.at[id+o]
				if j >= 0 && f.dist[j]-f.dist[i] >= 0.8*f.g.h*f.g.step[k] {
					out[i] = false
					break
				}
			}
			if out[i] && f.flat(int32(i)) {
				out[i] = false
			}
		}
	})
	return out
}

// flat reports whether the solid around interior voxel i is a plate (an
// ear, a fin) rather than a tube or a lump. Take the interior voxel
// centres within ρ = max(3·d, 3 voxels) of it, d its distance to the
// surface, and the eigenvalues λ₁ ≥ λ₂ ≥ λ₃ of their covariance: a plate
// of half-thickness d spreads in two directions (λ₂ > 0.15·λ₁, where a
// tube's axis sees one) and across it no more than a slab of that
// thickness (λ₃ < 0.6·d², a slab's being d²/3, plus a voxel's own
// variance), where the middle of a lump sees the whole lump. The ball
// is at least three voxels wide so a part one voxel thick still has a
// shape to measure.
func (f *field) flat(i int32) bool {
	l, ok := f.ballShape(i, max(3*f.dist[i], 3*f.g.h), 6, false)
	if !ok {
		return false
	}
	d := f.dist[i] / f.g.h
	return l[1] > 0.15*l[0] && l[2] < 0.6*d*d+1.0/6
}
