package gltf

import (
	"io"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
)

// Write writes r as a binary glTF (GLB). (Placeholder until the writer
// lands.)
func Write(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	return format.ErrUnsupported
}
