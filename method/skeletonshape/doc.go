// Package skeletonshape holds what the single-mesh skeleton methods
// (method/forcefield, method/contraction) do to a curve skeleton once they
// have one, to make it one an animator would keep (issue 18): the mesh's
// mirror plane (MirrorPlane) and the skeleton made symmetric about it
// (Symmetrize, MirrorResidual to measure it), detail branches folded into
// their parent (FoldDetail: short bumps; FoldThin: digits thinner than the
// method resolves), joints along straight runs removed
// (Straighten), a joint at each waist (Waists: the top of a neck, the
// head beyond it then ending at its crown), the root moved to the torso (TorsoRoot), star joints
// split into short chains (SplitStars), a joint count honoured
// (SetJoints) and the joints of a biped or quadruped named (Name), with
// a joint at the back of a head that hangs from its neck without a waist
// (HeadBase), the root then at the hips. Shape runs them in that order. It sits between
// the methods and method/static: it takes and returns a static.Skeleton
// in the mesh's units; the methods call it unless their Options.Raw.
//
//	s, _ := forcefield.Skeleton(ctx, m, forcefield.Options{Raw: true})
//	s, _ = skeletonshape.Shape(ctx, m, s, skeletonshape.Options{Joints: 20})
package skeletonshape
