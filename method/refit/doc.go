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
// It sits in the flow beside the methods: rig (+ sequence) → refit → rig.
//
//	out, rep, err := refit.Animation(ctx, edited, s, refit.Options{})
//	// out.Skeleton equals edited.Skeleton; rep.RMSEPercent is the fit's error
package refit
