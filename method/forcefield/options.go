package forcefield

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/method"
)

// Options controls Skeleton. The zero value gives the defaults.
type Options struct {
	// VoxelSize is the edge of a voxel as a fraction of the longest side
	// of the mesh's bounding box (the paper's Voxel-Size in its unit
	// cube, §3.2). Default 1/64: 64 voxels along the longest side, which
	// gives a few thousand to tens of thousands of interior points for a
	// character (the paper asks for more than 5000). It must lie between
	// 1/256 and 1/8; parts thinner than a voxel get no joints.
	VoxelSize float64
	// Rays is the number of rays cast from each interior point to sum the
	// force (§3.2: "about one hundred"). Default 100, from 16 to 1024.
	Rays int
	// Merge scales the distance spheres that group joint candidates:
	// candidates p and q merge when |p − q| < Merge·(r_p + r_q), r the
	// candidate's local thickness — its recorded distance to the surface
	// on the medial axis (§3.3) — and at least a voxel. Default 1; larger
	// values give fewer joints.
	Merge float64
	// Raw returns the curve skeleton as the force field finds it, without
	// method/skeletonshape (symmetry, torso root, stars split).
	Raw bool
	// NoSymmetry skips making the skeleton symmetric about the mesh's
	// mirror plane (skeletonshape.Options.NoSymmetry).
	NoSymmetry bool
	// Joints, when not 0, is the joint count wanted: joints with two bones
	// removed, straightest first, or the longest bones split
	// (skeletonshape.SetJoints; within one on a symmetric skeleton).
	// Default 0: as many as the shape's parts and bends give.
	Joints int
	// Detail keeps detail branches (ears, horns, bumps) that
	// skeletonshape.FoldDetail would fold into their parent.
	Detail bool
	// Progress and Notes may be nil.
	Progress method.Progress
	Notes    method.Notes
}

func (o Options) withDefaults() (Options, error) {
	if o.VoxelSize == 0 {
		o.VoxelSize = 1.0 / 64
	}
	if math.IsNaN(o.VoxelSize) || o.VoxelSize < 1.0/256 || o.VoxelSize > 1.0/8 {
		return o, fmt.Errorf("forcefield: voxel size %g is outside [1/256, 1/8] of the longest side", o.VoxelSize)
	}
	if o.Rays == 0 {
		o.Rays = 100
	}
	if o.Rays < 16 || o.Rays > 1024 {
		return o, fmt.Errorf("forcefield: %d rays per point is outside [16, 1024]", o.Rays)
	}
	if o.Joints < 0 || (o.Joints > 0 && o.Joints < 2) {
		return o, fmt.Errorf("forcefield: %d joints asked for; want at least 2", o.Joints)
	}
	if o.Merge == 0 {
		o.Merge = 1
	}
	if math.IsNaN(o.Merge) || o.Merge <= 0 || math.IsInf(o.Merge, 0) {
		return o, fmt.Errorf("forcefield: merge scale %g must be positive", o.Merge)
	}
	return o, nil
}
