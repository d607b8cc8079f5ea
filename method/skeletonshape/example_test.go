package skeletonshape_test

import (
	"fmt"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/method/skeletonshape"
)

// A generated biped is its own mirror image across x = 0; a hand is not.
func ExampleMirrorPlane() {
	for _, k := range []character.Kind{character.Biped, character.Hand} {
		r, err := character.Generate(k, character.Options{Vertices: 2000, Frames: 1})
		if err != nil {
			panic(err)
		}
		pl, _ := skeletonshape.MirrorPlane(r.Mesh)
		fmt.Printf("%s: symmetric %v\n", k, pl.Residual <= skeletonshape.SymmetricResidual)
	}
	// Output:
	// biped: symmetric true
	// hand: symmetric false
}
