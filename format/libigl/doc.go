// Package libigl reads the rig files of libigl (github.com/libigl/libigl)
// and turns them into meshrig rigs: ground truth to test and measure
// rigging methods against.
//
//   - TGF skeletons (ReadTGF): joint lines "index x y z …", a "#" line,
//     bone lines "a b …" with 1-based joint indices, a "#" line.
//   - DMAT matrices (ReadDMAT, WriteDMAT): a "cols rows" line then the
//     values column-major in ASCII, or a "0 0" line (or "0 cols rows")
//     then binary little-endian float64 values, column-major. Weights are
//     #V by #bones; animations are (12·#bones) by #frames.
//   - plain text tables such as the .Tmat transform files (ReadTable).
//
// libigl skins per bone: every bone (a TGF edge a→b) has a weight column
// and an affine transform, stacked as in igl::lbs_matrix: bone k's block
// is the 4×3 matrix [Aᵀ; tᵀ], so that a rest point v goes to
// Σ_k w_k·[v 1]·T_k = Σ_k w_k·(A_k v + t_k) (Transforms, AnimationFrame,
// Deform). meshrig's joints instead rotate about their heads, so Rig maps
// bone k to joint "bone_k" with its head at a, and SkinMatrices places the
// bone transforms on those joints; rig.ClipFromSkinMatrices then gives a
// joint-rotation clip:
//
//	r, boneJoint, err := libigl.Rig(m, tgf, weights)
//	tr, err := libigl.AnimationFrame(anim, f)
//	mats, err := libigl.SkinMatrices(r, boneJoint, tr)
package libigl
