// Package obj reads and writes Wavefront OBJ meshes: vertices ("v") and
// polygonal faces ("f") in every index form (v, v/vt, v//vn, v/vt/vn),
// with negative (relative) indices and comments. Texture coordinates,
// normals, groups and materials are skipped; polygons are kept so that a
// quad mesh is written back as quads.
//
// Importing the package registers ".obj" (and ".obj.gz") with package
// format as a per-frame mesh format.
package obj
