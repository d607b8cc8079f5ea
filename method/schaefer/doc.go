// Package schaefer rigs a mesh animation with the method of Schaefer &
// Yuksel 2007, "Example-Based Skeleton Extraction" (SGP 2007):
//
//  1. Bones (§3): a Rigid Error Function per face and pose — 17 numbers
//     from which the best rigid fit and its error follow (Horn's 4×4
//     eigenproblem, robust for planar clusters) and which add up when
//     faces merge — and greedy face clustering on the face adjacency graph
//     with a priority queue and lazily re-evaluated ("dirty") edges, down
//     to a bone count or an error tolerance; optional Lloyd refinement.
//  2. Weights (§4): per vertex, least squares with weights summing to one,
//     made non-negative and at most four by repeatedly zeroing the most
//     negative (then the smallest) weight; influence maps flooded from each
//     bone's heaviest vertex; a re-solve restricted to the maps. Beyond
//     the paper, bones whose weights add up to less than one vertex are
//     dropped and the weights solved again: nothing would place their
//     joints.
//  3. Skeleton (§5): connectivity as the maximum spanning tree of the
//     weight graph, the root at the bone whose faces' center of mass is
//     nearest the model's, and joints by Eq. 6 — the least-norm solution
//     through a pseudo-inverse around the weight-based estimate x̂.
//
// All of it works on the mesh welded along its seams (method/weld), so a
// triangle soup or a mesh cut along texture seams is one surface for face
// adjacency and influence maps; every input vertex then takes its welded
// vertex's weights, and the last rotation fit sees them all.
//
// The skeleton is then exported as a joint-rotation hierarchy, its
// rotations, joints and weights fitted on that parameterization
// (method/skinning), so errors are those of the rig as written.
package schaefer
