// Package contraction finds the curve skeleton of a single static mesh by
// Laplacian mesh contraction (Au, Tai, Chu, Cohen-Or & Lee, "Skeleton
// extraction by mesh contraction", 2008), as the Laplacian-contraction
// Collada paper (../shared/papers/laplacian-contraction-skeleton-collada.txt)
// applies it. It is one of the single-mesh methods of issue 6: it returns
// a static.Skeleton, which method/skinweights binds to the mesh and
// static.Skeleton.Rig turns into a rig.
//
// The steps, in unit-sphere coordinates:
//
//  1. Mesh graph (Collada paper §3, graph.go): coincident vertices are
//     welded (seams), triangles on a spurious edge — one far longer than
//     the edges around both its ends — are left out and vertices where
//     two sheets pinch are split (splitting), holes are closed with low
//     cones, and separate components are linked by the closest vertex
//     pairs of a minimum spanning tree over components (joining). A
//     dense mesh is simplified to Options.MaxVertices by QEM edge
//     collapses, a coarse one subdivided, so every model contracts at a
//     workable sampling.
//  2. Contraction (Au §3, Collada §4, contract.go): constrained
//     Laplacian smoothing, [W_L·L; W_H] V' = [0; W_H·V] in the
//     least-squares sense, with the cotangent Laplacian recomputed each
//     iteration, W_L growing by s_L and W_H following the one-ring area
//     ratio, until the volume is below Options.Stop of the original. The
//     normal equations are solved by conjugate gradients preconditioned
//     with the sparse Cholesky factor of W_L·L + W_H (solve.go).
//  3. Simplification (Au §4, Collada §5.1, simplify.go): very short edges
//     are merged, then half-edge collapses priced by the edge-quadric
//     shape cost plus the sampling cost remove every face (connectivity
//     surgery), then continue on the 1D graph down to Options.Joints
//     joints, never folding a loop. After the surgery, each node sits
//     at the centre of the mesh region collapsed into it (the Collada
//     paper's "every control point is shifted into the center of its
//     local mesh area"), so costs measure the skeleton that is returned.
//     Collapses out of a node whose mesh region is a plate seen from
//     both sides (normals along one axis, both ways: an ear, a fin)
//     cost a hundredth (flat.go), so a plate's contracted sheet ends as
//     a joint or two, not a tree of branches.
//  4. Embedding (Collada §5, embed.go): each joint is the area-weighted
//     centre of its mesh region (a closed hole counting as a flat cap,
//     not as the cone the contraction saw); the root is the joint whose
//     region encloses the most volume. A mesh that collapses to fewer
//     nodes than asked for gets the rest at the middle of its longest
//     bones.
//
// Where this departs from the papers, and why: the contraction stops at
// 10⁻³ of the volume rather than 10⁻⁶ (by then tubes are curves, and
// later iterations mostly shorten limbs and fold needle triangles);
// cotangents of needle triangles are scaled down per triangle, not
// clamped per angle, so L stays positive semi-definite; W_L is capped at
// 2048·W_L⁰ and W_H at 10⁴·W_H⁰, as in Au et al.'s implementation;
// plates, which contract to sheets with no curve skeleton, are
// simplified first (the papers give sheets no special treatment).
//
// Example:
//
//	m, _ := format.ReadMesh("armadillo.obj.gz")
//	skel, err := contraction.Skeleton(ctx, m, contraction.Options{Joints: 24})
//	skin, _ := skinweights.Compute(m, skel, skinweights.Heat, skinweights.Options{})
//	r, _ := skel.Rig(m, skin)
package contraction
