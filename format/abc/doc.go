// Package abc reads Alembic mesh caches (.abc) in the Ogawa container,
// the layout Alembic 1.5 and later write (Maya's AbcExport, Houdini,
// Blender): an animated scene becomes a seq.Sequence for the methods.
//
// # What is read
//
// Open reads the container and the archive's structure: the time
// samplings, the object hierarchy with each object's metadata (its schema:
// "AbcGeom_PolyMesh_v1", "AbcGeom_Xform_v3", …) and every property's
// header; samples are read later, on demand (Float32s, Int32s, Float64s,
// Positions). PolyMesh reads a mesh's topology — ".faceCounts" and
// ".faceIndices" — and finds its "P", "uv" and "N"; Xform reads a
// transform's operations (translate, rotate, rotate X/Y/Z, scale, matrix)
// and Local evaluates them at a time, with the ".inherits" flag.
//
// Read (and ReadScene, registered with package format as "alembic" for
// ".abc") puts it together: every PolyMesh whose positions or transforms
// are animated and whose topology stays the same — or the one
// Options.Object picks — with the Xforms above it applied per sample, as
// one mesh; Scene.Parts say which vertices and polygons came from which
// object, and Scene.Objects lists every object for meshrig info. Frames
// are the samples themselves when one evenly spaced sampling drives
// everything (Maya's 24 fps cache: 400 frames at 24 fps), else an even
// grid over their span at Options.FPS, the finest even rate among them,
// or 30 fps, positions and transform channels interpolated linearly.
// Polygons are fanned into triangles by mesh.New, as OBJ's are.
//
// Winding: Maya's exporter writes each polygon's vertices in reverse
// (clockwise seen from outside); PolyMesh.Polygons reverses them back, so
// the first vertex and the order are Maya's own and the faces of
// Bone_Anim.abc face outward (positive enclosed volume in every frame).
// Face-varying UVs and normals are reversed with them.
//
// The rest mesh's mesh.Surface has a part per object read (named by its
// path) with a part per triangle, and, when every object has them, the
// "uv" set (v flipped top-down, as Surface wants) and the normals (turned
// by each object's transform at the first frame) per triangle corner.
// Part keeps each object's UVs and normals as read (the first frame's, in
// the object's own space, face-varying ones in corner order). Extra UV
// sets (under ".arbGeomParams"), velocities, bounds, visibility (a hidden
// mesh is read like the others), subdivision surfaces, curves, points,
// cameras and materials are not read.
//
// # What is refused
//
// The old HDF5 container ("HDF5 Alembic files are not supported; re-export
// as Ogawa"), Ogawa versions other than 1, files not cleanly closed by
// their writer, a picked mesh whose topology changes (naming the sample),
// and frames that would take more than Options.MaxBytes (1.5 GiB) — ask for
// fewer with --frames, a lower --fps or one --object.
//
// # The layout in brief
//
// An Ogawa file is a 16-byte header ("Ogawa", 0xff once closed, version 1,
// the root group's offset) and a tree of groups (a uint64 count and
// uint64 child offsets; the top bit marks a data block) and data blocks (a
// uint64 size and the bytes). The root group holds the archive version,
// the library version, the top object, the archive metadata, the time
// samplings and shared metadata strings. An object's group holds its
// compound property, its children's groups and a block of their headers
// (name, metadata); a compound's group holds its properties' groups and a
// block of their headers, each starting with a uint32 of packed bits (kind,
// POD type, extent, sampling index, which samples changed, metadata
// index). A scalar property's group holds a block per stored sample, an
// array's a block and a dimensions block per stored sample; each sample
// block starts with a 16-byte hash. Repeated samples are stored once.
//
// Every offset and size is checked against the file's size before anything
// is allocated, every group is read at most once (a cycle or a shared
// group is refused), and errors are format.ParseError with the byte
// offset of what is wrong. Errors count samples, points and face indices
// from 0, as Alembic does (faces from 1, as meshrig does), and give the
// sample's time where it helps.
//
// Example:
//
//	sc, err := format.ReadScene("Bone_Anim.abc", format.SceneOptions{Object: "/Bone/BoneShape"})
package abc
