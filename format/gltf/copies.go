package gltf

import "github.com/meshrig/meshrig/mesh"

// Copies returns the vertices Write adds after m's own, as the mesh
// vertex each copies: where per-corner attributes differ at a vertex (an
// OBJ UV seam) glTF needs one vertex per combination, so written vertex
// len(m.Verts)+k is a copy of mesh vertex Copies(m)[k]. Every primitive
// Write makes shares that one vertex array. Nil when nothing is copied.
// Readers of a written file (a viewer colouring it per mesh vertex) use
// it to map the file's vertices back to the mesh's.
func Copies(m *mesh.Mesh) []int {
	if m.Surface == nil {
		return nil
	}
	src := newLayout(m).src
	if len(src) == len(m.Verts) {
		return nil
	}
	return src[len(m.Verts):]
}
