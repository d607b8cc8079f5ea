// Package refit solves a rig again after its skeleton was edited — in
// `meshrig view`, in Blender, or by rig/edit — with that skeleton held
// fixed: its joints' names, order, hierarchy and rest heads come back
// exactly as given.
//
// Animation fits, to a mesh animation, the skin weights (at most
// Options.MaxInfluences per vertex) and the per-frame joint rotations plus
// root translation, with the project's skeletal fit (method/skinning:
// exact hierarchical rotation descent, per-vertex least-squares weights).
// Static binds a rig with no animation to its edited skeleton again with a
// weight scheme of method/skinweights (bone heat by default).
//
// The same entry point rigs with what the user already has: a bare
// skeleton (a rig with no skin or clips; PlaceSkeleton checks it against
// the mesh first), a painted mask (Options.Mask: mask-0 vertices keep
// their weights bit for bit), locked joints (Options.Lock: their tracks
// are kept, the others refitted) and helper bones added to a body rig
// where it misses the animation (Options.Helpers; see helpers.go).
//
// It sits in the flow beside the methods: rig (+ sequence) → refit → rig.
//
//	out, rep, err := refit.Animation(ctx, edited, s, refit.Options{})
//	// out.Skeleton equals edited.Skeleton; rep.RMSEPercent is the fit's error
package refit
