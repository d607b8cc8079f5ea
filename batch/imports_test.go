package batch

// The formats register themselves; a program using batch imports those it
// needs, as meshrig does (cmd/meshrig/imports.go).
import (
	_ "github.com/meshrig/meshrig/format/collada"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/obj"
	_ "github.com/meshrig/meshrig/format/pc2"
)
