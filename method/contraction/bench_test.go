package contraction

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
)

// BenchmarkArmadillo extracts the skeleton of the shared 43k-vertex
// armadillo (issue 6: skeleton plus heat weights under 10 s).
func BenchmarkArmadillo(b *testing.B) {
	m, err := format.ReadMesh(shareddata.Path(b, "static/armadillo.obj.gz"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Skeleton(context.Background(), m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCapsule extracts the skeleton of a 2000-vertex capsule, no
// shared data needed.
func BenchmarkCapsule(b *testing.B) {
	m := testshape.Join(b, func() ([]linalg.Vec3, [][]int) { return capsule(2, 0.5, 40, 48, 8) })
	for b.Loop() {
		if _, err := Skeleton(context.Background(), m, Options{MinVertices: -1}); err != nil {
			b.Fatal(err)
		}
	}
}
