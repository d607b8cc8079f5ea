// Package edit holds the skeleton edits a viewer offers — move a joint,
// split a bone, add a child, remove a joint, reparent, pick the root,
// rename — as pure functions on a *rig.Rig. Each returns a new, validated
// rig (sharing the input's Mesh, never changing the input) or a one-line
// error saying what is wrong; the weights and motion it carries over are
// a starting point for solving them again on the edited skeleton.
//
// Joints stay listed parents first, root first; an edit that changes the
// hierarchy may renumber joints, and says how (an old→new id map, Removed
// for a removed joint) so a caller can keep its selection. Skin joint ids
// and clip tracks follow. New joints are named joint_NN, the first number
// no joint has, and carry no weight.
//
// In the clips, every joint keeps its global rotation, and its skin
// transform exactly wherever its translation track is free (the root's,
// a free bone's, a hip's under placement joints). A rigid bone — a
// non-root track at its rest offset, as in every skeletal rig — stays
// rigid at its edited rest offset, and so does a joint whose subtree no
// vertex is weighted to (placement joints re-rooted below the hip); that
// is where an edit can change the motion: MoveJoint of a non-root joint,
// RemoveJoint, Reparent and SetRoot move a subtree by where the rotations
// it used to hang from differ from the new ones. SplitBone, AddChild,
// Rename and MoveJoint of the root (or of a weightless leaf) change no
// vertex's playback of a rotation-only rig.
//
// A rig that squashes and stretches (clips with scale tracks) keeps them
// through an edit that leaves its skeleton as it was (a rename; a move to
// the same head). Any other edit carries its rotations and translations
// as a rotation-only rig's and gives it scale tracks of ones: a scale is
// inherited by every joint below it, so it would have to be split again
// at the new joints; a refit (registry.RefitAnimation) fits them again.
//
//	r, ids, err := edit.RemoveJoint(r, elbow) // ids[k]: old joint k's new id
//	r, mid, err := edit.SplitBone(r, ids[wrist], 0.5) // a joint mid-forearm
//
// Apply performs an Op decoded from a viewer's JSON, checking every field
// it reads.
package edit
