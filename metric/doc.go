// Package metric measures how well a rig reproduces a mesh animation, with
// the definitions every meshrig number uses (d is the rest pose's
// bounding-box diagonal, N vertices, F frames):
//
//   - RMSE% = 100·sqrt(Σ_f Σ_i |v̂ᵢᶠ − vᵢᶠ|² / (N·F)) / d
//   - Max%  = 100·max |v̂ᵢᶠ − vᵢᶠ| / d
//   - Normal RMS = RMS over faces and frames of |n̂ − n| for unit face normals
//   - Joint error% = symmetric chamfer distance between two joint sets in the
//     rest pose, the mean of both directions, in % of d.
//
// Errors are always measured on the rig as it would be exported (joint
// transforms through the hierarchy), by replaying its clips.
package metric
