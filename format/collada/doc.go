// Package collada writes rigs as COLLADA 1.4.1 documents (.dae), the
// last stage of the flow (input → sequence → method → rig → writer):
//
//   - library_geometries: the rest mesh, positions and vertex normals,
//     the polygons as read (a polylist, so quads stay quads; triangles
//     when the mesh has only triangles);
//   - library_controllers: a skin with an identity bind shape, inverse
//     bind matrices (translations by −Head: rest orientations are the
//     identity) and each vertex's non-zero weights;
//   - library_visual_scenes: a JOINT node per joint, nested as in the
//     skeleton, whose <matrix sid="transform"> is the rest offset from
//     its parent's head, and a node instancing the skin;
//   - library_animations: per clip one animation sampling every joint's
//     local matrix per frame (times f/FPS from 0, LINEAR), targeting
//     "joint/transform", and library_animation_clips naming them.
//
// Joint IDs are the joint names made NCNames (characters other than
// letters, digits, '_' and '-' become '_'); node name attributes keep the
// names as they are. Output is deterministic: the asset dates are fixed.
//
// Importing the package registers ".dae" with package format:
//
//	err := format.WriteFile("dog.dae", r, format.WriteOptions{})
//
// assimp (5.x) imports the result with one animation per clip; it
// ignores library_animation_clips and names them "<first>_<clip>".
package collada
