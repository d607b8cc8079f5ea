// Package aguiar rigs a mesh animation with the method of de Aguiar,
// Theobalt, Thrun & Seidel 2008, "Automatic Conversion of Mesh Animations
// into Skeleton-based Animations" (Eurographics 2008):
//
//  1. Motion-driven segmentation (§4): seed vertices spread evenly over the
//     reference pose (farthest-point sampling), the affinity of Eq. 1 from
//     the mean and spread of their mutual distances over time, spectral
//     clustering (Ng–Jordan–Weiss) with k chosen so about 99% of the
//     variation is explained, and every triangle assigned to its nearest
//     seed's class: approximately rigid patches.
//  2. Skeleton (§5): patches adjacent across boundary triangles, keeping
//     the longest common boundaries where more than two meet (a maximum
//     spanning tree of boundary lengths), the root at the patch nearest the
//     center of gravity, and joints by Eq. 2 — least variance of
//     joint-to-seed distances over time plus α = 0.05 times the distance
//     to the boundary's centroid — mapped to every frame by the patches'
//     rigid fits.
//  3. Motion (§6): constant bone lengths root to leaves (Eq. 3), then each
//     bone's rotation per frame fitted down the chain on quaternions
//     (a coordinate-descent solve toward the joint positions, the patch's
//     own rotation fixing the twist), and the root translation.
//  4. Weights (§7): bone heat diffusion, (−Δ_f + H_f) w = H_f p per frame
//     with the cotangent Laplacian of that frame (one symbolic analysis,
//     refactored per frame), averaged over frames; the four largest kept.
//
// By default the rig's rotations and joints are then fitted to the input
// on the exported parameterization (method/skinning), keeping the heat
// weights; Options.Refine < 0 leaves the paper's result as it is.
package aguiar
