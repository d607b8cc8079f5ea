// Package gltf reads and writes glTF 2.0 (.glb, and .gltf with external or
// data-URI buffers).
//
// Reading samples a file's animation into a seq.Sequence and returns the
// file's own skeleton, skin and motion as a rig.Rig when it has them.
// Writing produces a GLB (or a .gltf with its buffer embedded) with the
// rest mesh (with normals), the skin with inverse bind matrices, the joint
// node hierarchy and one animation per clip.
//
// Importing the package registers ".glb" and ".gltf" with package format.
package gltf

import "github.com/meshrig/meshrig/format"

func init() {
	format.Register(format.Format{Name: "gltf", Exts: []string{".glb", ".gltf"}, Scene: ReadScene, Write: Write})
}
