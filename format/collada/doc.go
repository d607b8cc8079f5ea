// Package collada writes rigs as COLLADA 1.4.1 (the default) and 1.5
// documents (.dae), the last stage of the flow (input → sequence →
// method → rig → writer), and reads them back (ReadScene), so a rig
// written as .dae is an input like a glTF file. Write writes:
//
//   - library_images, library_effects, library_materials: the mesh
//     surface's materials by name, a lambert effect with the base colour
//     or (1.4.1) the base colour texture, the image by the path it was
//     read from (relative: keep the texture beside the .dae) or, for an
//     image that came embedded, as a data: URI (assimp cuts such a URI at
//     1024 bytes), bound to each part through the skin's instance; 1.5
//     keeps colours only, as assimp 5.x refuses a 1.5 texture sampler;
//   - library_geometries: the rest mesh, positions and normals (the
//     surface's own, else vertex normals), a TEXCOORD input per UV set,
//     the polygons as read (a polylist, so quads stay quads; triangles
//     when the mesh has only triangles), one element per part of the
//     surface naming its material;
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
// COLLADA 1.5 (WriteOptions.Version "1.5", or Write15 with joint angle
// limits) keeps those sections and adds the kinematics model the
// Laplacian-contraction paper exports: library_joints (every non-root
// joint as three revolute axes, X, Y and Z of its rest frame, with limits
// in degrees where given), library_kinematics_models (the root joint's
// frame as the base link, each joint attaching its child link at the rest
// offset), library_kinematics_scenes, and in <scene> the binding of the
// model to the root joint node and of every axis to a <rotate> (angle 0)
// the joint node gains after its matrix.
//
// Joint IDs are the joint names made NCNames (characters other than
// letters, digits, '_' and '-' become '_'); node name attributes keep the
// names as they are. Output is deterministic: the asset dates are fixed.
//
// ReadScene reads what Write writes, and what other tools write within
// what a rig can hold: one skinned mesh (triangles, polylist or polygons;
// a bind shape matrix) with its normals, texture coordinate sets and, per
// primitive element, its material (name, diffuse colour, diffuse texture:
// an embedded image's bytes or a file's path) in the mesh's Surface — an
// input whose source cannot be followed is dropped, not refused —, its
// skin's joints as the rig's skeleton (heads
// from the inverse bind matrices; rest orientations folded into the
// clips), each vertex's four largest weights, and the animations —
// node transform stacks with matrix, translate, rotate and scale
// channels, LINEAR or STEP — sampled into clips, one per
// <animation_clip>. The rig it returns plays every frame as the file
// does, checked joint by joint and frame by frame; what a rig cannot hold
// (joints that scale or shear, morphs, several skins, curved
// interpolation…) is refused with format.ErrUnsupported, naming the
// element and its line. The 1.5 kinematics libraries are not read.
//
// Importing the package registers ".dae" with package format, for
// reading and writing:
//
//	err := format.WriteFile("dog.dae", r, format.WriteOptions{})
//	sc, err := format.ReadScene("dog.dae", format.SceneOptions{})
//
// assimp (5.x) imports the result with one animation per clip; it
// ignores library_animation_clips and names them "<first>_<clip>".
// Blender's Collada importer merges every animation of a document into
// one action, so for Blender write one document per clip
// (rig.Rig.SplitClips; meshrig rig --split-clips).
package collada
