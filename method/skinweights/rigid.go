package skinweights

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// rigid binds every vertex wholly to the joint of its nearest bone
// segment (Liu et al. 2003 §3.4 binds rigid models to the nearest joint;
// the nearest bone is what the joint's rotation actually carries, so a
// vertex near the end of a bone does not follow the next joint).
func rigid(pos []linalg.Vec3, segs []Segment) rig.Skin {
	skin := make(rig.Skin, len(pos))
	par.For(len(pos), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k, _ := nearest(segs, pos[i])
			skin[i] = rig.Influence{Joint: [4]rig.JointID{rig.JointID(segs[k].Joint)}, Weight: [4]float64{1}}
		}
	})
	return skin
}
