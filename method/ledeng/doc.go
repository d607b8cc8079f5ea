// Package ledeng rigs a mesh animation with the method of Le & Deng 2014,
// "Robust and Accurate Skeletal Rigging from Mesh Sequences" (ACM TOG 33(4)):
//
//  1. Initialization (§4): motion-driven LBG clustering of the vertices
//     into an over-estimated number of rigid clusters, then one bone per
//     connected patch of each cluster.
//  2. Topology (§5): skinning decomposition without a skeleton, the center
//     of rotation of every bone pair, graph weights by Eq. 2 and their
//     minimum spanning tree.
//  3. Iterative rigging (§6): block coordinate descent over skinning
//     weights (rigidness-Laplacian smoothness, Eq. 4–5), joint positions,
//     bone transforms with soft joint constraints (Eq. 6–10), and pruning
//     of redundant bones (Eq. 11), of joints that never bend, and of the
//     bones the others can best do without while the error stays within
//     an allowance (pruner.go: Eq. 11 alone rarely fires here).
//  4. Output: the joint-rotation hierarchy (rigid bones, rotations below
//     the root, root translation), refined so the exported rig — not the
//     intermediate free transforms — fits the input.
//
// All work happens in unit-sphere coordinates (method.UnitSphere) so the
// paper's parameters mean the same on every model, and on the mesh welded
// along its seams (method/weld: a triangle soup or a mesh cut along
// texture seams is one surface for patches and smoothness); every input
// vertex then takes its welded vertex's weights, and the last rotation
// fit sees them all. Loops run on every
// core with fixed chunking, so a seed and an input give the same rig
// whatever GOMAXPROCS is.
package ledeng
