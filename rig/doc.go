// Package rig holds a skeletal rig: a joint hierarchy with rest positions,
// linear-blend-skinning weights (at most 4 per vertex), and clips of joint
// motion; plus forward kinematics and LBS deformation.
//
// Rigging methods return a *Rig; writers take one. The rest pose of every
// joint has identity orientation, so a joint is fully described by its head
// position, and its bind (inverse rest) transform is a translation by -Head.
//
// A clip stores, per frame and joint, a local rotation and a local
// translation. In a skeletal rig the translation of every non-root joint is
// its fixed rest offset from its parent (rigid bones); only the root moves
// freely. The free form of skinning decomposition (NewFree) instead gives
// every bone its own translation under a static root.
//
//	pose := r.Pose(&r.Clips[0], f, nil)          // global joint transforms
//	verts := r.Deform(nil, r.SkinMatrices(pose, nil)) // LBS of the rest mesh
package rig
