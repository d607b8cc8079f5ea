// Package skinning holds the model every example-based rigging method
// works on — rest and posed positions in unit-sphere units, per-frame
// rigid bone transforms, at most four weighted bones per vertex — and the
// steps the methods share: rigid fits of clusters, transform updates with
// soft joint constraints, and the final fit of a joint-rotation skeleton
// (exact hierarchical rotations, linear joint positions) so that errors
// are measured, and minimized, on the rig as exported.
package skinning
