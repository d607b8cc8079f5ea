// Package format is the registry of file formats and the entry points that
// turn command-line inputs into a sequence and a rig into a file.
//
// Each format lives in its own package (format/obj, format/gltf, …) and
// registers itself in init, as image formats do; import it for its side
// effect. Load then accepts files, folders and globs:
//
//	import _ "github.com/meshrig/meshrig/format/obj"
//	in, err := format.Load([]string{"walk/"}, format.LoadOptions{})
//	// in.Sequence has every frame of walk/ in natural order
//
// and WriteFile picks the writer by the output's extension, writing through
// a temporary file.
//
// What a file shows besides its shape — UVs, normals, colours, materials,
// textures, parts — rides on the rest mesh (mesh.Surface) from reader to
// writer. Load reads the rest mesh with ReadRestMesh, which also reads the
// side files a mesh format names (OBJ's mtllib and textures); frames are
// read for their positions only.
package format
