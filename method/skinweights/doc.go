// Package skinweights binds a static mesh to a skeleton found from it
// (method/static, returned by method/forcefield and method/contraction):
// at most four joints per vertex, weights summing to one. It is the step
// between a static skeleton and a rig (static.Skeleton.Rig).
//
// Four schemes:
//
//   - Rigid: every vertex follows the joint of its nearest bone segment.
//   - Distance: the four nearest joints, weighted by Liu et al. 2003's
//     formula ω_j = (D − d_j) / ((S − 1) D).
//   - Geodesic: the four joints nearest along the surface, weighted by
//     inverse geodesic distance (the Laplacian-contraction paper, Eq. 5–6),
//     with one Dijkstra per joint instead of Floyd–Warshall.
//   - Heat (the default): bone heat diffusion, Baran & Popović 2007, as in
//     Blender's automatic weights; one sparse factorization for all bones,
//     each vertex heated by its nearest bone visible from it (the line to
//     the bone stays inside the surface; tested through a bvh.Tree).
//
// A bone is a segment from a joint to each of its children in the
// skeleton's spanning tree (static.Skeleton.Tree): rotating the joint
// moves that segment, so the vertices around it follow the joint. Leaf
// joints own no segment and get no rigid or heat weight.
//
// Heat is also the solver the animation method de Aguiar 2008 runs per
// frame (NewHeatSolver once, HeatSolver.Solve per pose).
//
//	skel, _ := contraction.Skeleton(ctx, m, contraction.Options{})
//	skin, _ := skinweights.Compute(m, skel, skinweights.Heat, skinweights.Options{})
//	r, _ := skel.Rig(m, skin)
package skinweights
