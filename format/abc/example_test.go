package abc

import (
	"bytes"
	"fmt"
)

// ExampleRead reads a small cache: an Xform over a PolyMesh of two quads
// and a pentagon, three samples at 24 fps.
func ExampleRead() {
	file := tinyUniform(3)
	sc, err := Read(bytes.NewReader(file), int64(len(file)), Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := sc.Sequence
	fmt.Printf("%d vertices, %d polygons, %d frames at %g fps\n", s.N(), s.Rest.NumPolys(), s.F(), s.Clips[0].FPS)
	for _, o := range sc.Objects {
		fmt.Printf("%s %s, %d samples, first vertex %d\n", o.Path, o.Type, o.Samples, o.FirstVert)
	}
	// Output:
	// 8 vertices, 3 polygons, 3 frames at 24 fps
	// /xf AbcGeom_Xform_v3, 3 samples, first vertex -1
	// /xf/shape AbcGeom_PolyMesh_v1, 3 samples, first vertex 0
}
