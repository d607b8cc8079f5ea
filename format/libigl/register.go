package libigl

import (
	"io"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// Importing the package registers ".tgf" (a ground-truth skeleton for
// --truth) and ".dmat" (matrices this package reads) with package format.
func init() {
	format.Register(format.Format{Name: "libigl", Exts: []string{".tgf"}, Joints: readJoints})
	format.Register(format.Format{Name: "libigl", Exts: []string{".dmat"},
		Note: "weight and transform matrices (library format/libigl)"})
}

func readJoints(r io.Reader) ([]linalg.Vec3, error) {
	t, err := ReadTGF(r)
	if err != nil {
		return nil, err
	}
	return t.Joints, nil
}
