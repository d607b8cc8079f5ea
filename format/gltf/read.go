package gltf

import (
	"io/fs"

	"github.com/meshrig/meshrig/format"
)

// ReadScene reads the glTF file name from fsys. (Placeholder until the
// reader lands.)
func ReadScene(fsys fs.FS, name string, opt format.SceneOptions) (*format.Scene, error) {
	return nil, format.ErrUnsupported
}
