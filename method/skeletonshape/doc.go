// Package skeletonshape holds what the single-mesh skeleton methods
// (method/forcefield, method/contraction) do to a curve skeleton once they
// have one, to make it one an animator would keep (issue 18): the mesh's
// mirror plane (MirrorPlane) and a skeleton made symmetric about it
// (Symmetrize), the root moved to the torso (TorsoRoot), star joints split
// into short chains (SplitStars) and the joint budget (Fold: detail parts
// folded into their parent, a joint count honoured). Shape runs them in
// that order. It sits between the methods and method/static: it takes and
// returns a static.Skeleton in the mesh's units.
//
//	s, _ := forcefield.Skeleton(ctx, m, forcefield.Options{})
//	s, _ = skeletonshape.Shape(ctx, m, s, skeletonshape.Options{})
package skeletonshape
