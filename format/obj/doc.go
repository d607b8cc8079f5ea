// Package obj reads and writes Wavefront OBJ meshes: vertices ("v") and
// polygonal faces ("f") in every index form (v, v/vt, v//vn, v/vt/vn),
// with negative (relative) indices and comments. Polygons are kept so that
// a quad mesh is written back as quads.
//
// Read keeps what the mesh shows in its mesh.Surface: texture coordinates
// and normals per face corner (OBJ indexes them per corner; splitting the
// vertices at seams would change the vertex count the other frames of a
// sequence share), vertex colours (v x y z r g b), a material per usemtl
// name and a part per object and material. ReadFS also reads the material libraries (mtllib) and their
// textures from the file's folder, never outside it. Write writes
// positions and polygons only. ReadFrame is the loader's fast path for a
// folder of frames: positions parsed straight into float32, faces checked
// against the rest mesh, no mesh built.
//
// Importing the package registers ".obj" (and ".obj.gz") with package
// format as a per-frame mesh format whose rest mesh brings its materials
// (format.ReadRestMesh) and whose frames ReadFrame reads (format.Format.Frame).
package obj
