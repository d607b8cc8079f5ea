// Package fbx reads binary (and ASCII) FBX 7.x files (7.0–7.7; from 7.5 on with 64-bit
// record offsets), as Autodesk's FBX SDK, Maya and Blender write them.
//
// It has three layers, each usable alone:
//
//   - node records (Decode → Document, Node, Property): the file's tree of
//     named records with typed properties — Y C I F D L scalars, S strings,
//     R raw bytes, f d l i b arrays stored raw or zlib-deflated. Every
//     offset and length is checked against the file before anything is
//     allocated, and a compressed array must inflate to exactly its
//     declared size;
//   - the object model (NewFile → File, Object, Connection; Geometry,
//     Cluster, Curve, Transform): objects by ID, their OO/OP connections
//     (a cycle is refused), GlobalSettings (up axis, unit, frame rate),
//     and typed readers for meshes, skins, bind poses and animation curves;
//     Transform.Local is the FBX SDK's transform chain
//     T·Roff·Rp·Rpre·R·Rpost⁻¹·Rp⁻¹·Soff·Sp·S·Sp⁻¹ with Euler orders;
//   - the scene (ReadScene, Read): the rest mesh, the animation stacks
//     sampled into a seq.Sequence with every skin influence — the file's
//     own playback — and the file's skeleton, four largest weights and
//     motion as a rig.Rig, ground truth for metrics.
//
// In the flow, FBX is an input: an animation to rig, a rest mesh for a
// point cache or Alembic cache (--rest), or a rig to measure (eval
// reports both the file's own playback and the four-influence rig).
//
//	sc, err := format.ReadScene("Decomposition_20.fbx", format.SceneOptions{})
//	// sc.Sequence: 400 frames at 24 fps as Dem Bones plays them (8 influences);
//	// sc.Rig: 21 joints (a still root over 20 free bones), 4 influences
//
// Write writes a rig as binary FBX 7.4 (or 7.5): the mesh with its surface
// (UV sets, normals, materials with embedded textures), a LimbNode per
// joint, a skin cluster per joint, the bind pose, and an animation stack per
// clip. Read back by ReadScene it replays the rig within float32 keys; tests
// check that Autodesk's FBX SDK (through FBX2glTF), assimp and Blender read
// it and play it within RMSE% 1e-5 of d.
//
// ASCII FBX 7.x is read too (DecodeASCII gives the same node tree as the
// binary decoder, each value with the binary form's type).
//
// Not read: blend shapes, constraints, layered animation's
// weights and blend modes (the first layer to animate a property wins),
// InheritType RrSs as distinct from RSrs (the same without non-uniform
// scale), units and axes (coordinates stay as the file has them).
//
// Errors on malformed files are *format.ParseError with the byte offset of
// the record or property at fault (the line and column in an ASCII file);
// versions other than 7.x are refused with format.ErrUnsupported. Importing the package registers
// ".fbx" with package format (Mesh, Scene and Write).
package fbx
