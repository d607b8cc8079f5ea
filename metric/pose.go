package metric

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// PoseError is the pose test of a skeleton found on one static mesh:
// every joint of ours takes the motion of the true joint whose weights
// overlap its own the most (MatchJoints), our weights blend those
// motions, and the result is measured against anim, the animation the
// true rig's clips make (RMSE% on the rig as exported, as Compare does;
// bones may stretch, as the two skeletons' joints sit in different
// places). It returns that error and the true rig's own, the floor set
// by the truth's four-influence skin. Both rigs must skin anim's mesh.
func PoseError(ours, truth *rig.Rig, anim *seq.Sequence) (got, own float64, err error) {
	nj, nt := ours.Skeleton.Len(), truth.Skeleton.Len()
	match, err := MatchJoints(ours.Skin, nj, truth.Skin, nt)
	if err != nil {
		return 0, 0, err
	}
	driven := &rig.Rig{Mesh: ours.Mesh, Skeleton: ours.Skeleton, Skin: ours.Skin}
	var pose, sm []linalg.Affine
	for _, c := range truth.Clips {
		mats := make([]linalg.Affine, 0, c.Frames*nj)
		for f := 0; f < c.Frames; f++ {
			pose = truth.Skeleton.Pose(&c, f, pose)
			sm = truth.Skeleton.SkinMatrices(pose, sm)
			for _, m := range match {
				mats = append(mats, sm[m])
			}
		}
		driven.Clips = append(driven.Clips, rig.ClipFromSkinMatrices(&ours.Skeleton, c.Name, c.FPS, c.Frames, mats))
	}
	a, err := Compare(anim, driven)
	if err != nil {
		return 0, 0, err
	}
	b, err := Compare(anim, truth)
	if err != nil {
		return 0, 0, err
	}
	return a.RMSEPercent, b.RMSEPercent, nil
}
