package forcefield

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
)

// BenchmarkArmadillo: the 43k-vertex target mesh, skeleton only,
// default options.
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
