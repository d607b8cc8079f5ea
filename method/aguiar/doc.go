// Package aguiar rigs a mesh animation with the method of de Aguiar,
// Theobalt, Thrun & Seidel 2008, "Automatic Conversion of Mesh Animations
// into Skeleton-based Animations" (Eurographics 2008). Vertices that
// coincide in every frame are welded first, so meshes cut along texture
// seams (or triangle soups) are one surface for the steps that follow the
// triangles.
//
//  1. Motion-driven segmentation (§4): seed vertices spread evenly over the
//     reference pose (farthest-point sampling), the affinity of Eq. 1 from
//     the mean and spread of their mutual distances over time (each term
//     made unit-free by its mean), spectral clustering (Ng–Jordan–Weiss)
//     with k the smallest for which the groups' rigid motions explain
//     a given share of the seeds' articulated motion, and every triangle
//     assigned to its nearest seed's class. Patches whose motion a
//     neighbour, or a per-vertex blend of two (the bands where the skin
//     blends across a joint), reproduces are merged away. The paper's
//     share is "about 99%"; no one share suits every character, so by
//     default 99%, 99.5%, 99.8% and 99.9% are each segmented, rigged
//     quickly on a few frames, and the segmentation whose rig reproduces
//     the input best is kept (beyond the paper).
//  2. Skeleton (§5): patches adjacent across boundary triangles, keeping
//     the longest common boundaries where more than two meet (a maximum
//     spanning tree of boundary lengths), the root at the patch in the
//     center of gravity with its joint where that patch turns about (an
//     object fixed at one patch, which stays still while the rest moves
//     fifty times as much, is rooted at that patch's far end instead —
//     beyond the paper, whose subjects are free bodies), and joints by
//     Eq. 2 — least variance of joint-to-vertex distances over
//     time plus α = 0.05 times the distance to the boundary's centroid —
//     mapped to every frame by the patches' rigid fits.
//  3. Motion (§6): constant bone lengths root to leaves (Eq. 3), then each
//     bone's rotation per frame fitted down the chain on quaternions
//     (a coordinate-descent solve toward the joint positions, the patch's
//     own rotation fixing the twist), and the root translation.
//  4. Weights (§7): bone heat diffusion, (−Δ_f + H_f) w = H_f p per frame
//     with the cotangent Laplacian of that frame (one symbolic analysis,
//     refactored per frame) and H_f from the distance to the nearest bone
//     visible from the vertex in that frame (none: no heat), averaged
//     over frames; the four largest kept.
//
// By default the rig is then fitted to the input on the exported
// parameterization (beyond the paper): rotations by method/skinning, and
// weights by least squares on the bones the heat weights chose, pulled
// toward the heat weights; the joints stay where Eq. 2 put them.
// Options.Refine < 0 leaves the paper's result as it is.
//
//	r, err := aguiar.Rig(ctx, seq, aguiar.Options{})
package aguiar
