// Package weld merges the coincident vertices of a mesh animation, so
// files split along texture or normal seams (Fox.glb is a triangle soup,
// CesiumMan.glb has 138 pieces) are one surface for the steps that follow
// the triangles: vertex and face adjacency, patches, Laplacians, heat
// diffusion, influence maps.
//
// Weld merges every pair of vertices that coincide in the rest pose and
// stay together in every frame (vertices that only meet at rest, lips or
// touching fingertips, are kept apart by the tear test). Seams merges only
// vertices on the mesh's boundary, where a cut leaves its copies, so a
// mesh with no cut is left exactly as it is (the cow's one pinched vertex
// pair stays two vertices).
//
// A method welds its unit-sphere model (method.UnitSphere), works on the
// welded mesh for every topology-bound step, and maps the result back with
// Spread, so every input vertex takes its welded vertex's weights and the
// exported rig covers the input's vertices.
package weld
