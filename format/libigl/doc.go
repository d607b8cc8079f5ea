// Package libigl reads the rig files of libigl: TGF skeletons (joint
// positions and bones between them) and DMAT matrices (ASCII or binary),
// used for ground-truth weights and bone transforms; plus plain text
// tables such as the .Tmat transform files.
//
// libigl gives every bone (an edge a→b of the TGF) a weight column and an
// affine transform; Rig turns that into meshrig's joints, which rotate
// about their heads: bone k becomes joint "bone_k" with its head at a.
package libigl
