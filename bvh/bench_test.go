package bvh

import (
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
)

// benchTree is a torus of about 20k triangles and rays through its box.
func benchTree(b *testing.B) (*Tree, []linalg.Vec3, [][3]int, []Ray) {
	verts, faces := testshape.Torus(0.5, 0.2, 200, 50)
	var tris [][3]int
	for _, f := range faces {
		tris = append(tris, [3]int{f[0], f[1], f[2]})
	}
	rng := rand.New(rand.NewPCG(1, 1))
	rays := make([]Ray, 1024)
	for k := range rays {
		o := linalg.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64()*0.4 - 0.2}
		rays[k] = NewRay(o, linalg.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit())
	}
	return New(verts, tris, nil), verts, tris, rays
}

func BenchmarkNew(b *testing.B) {
	_, verts, tris, _ := benchTree(b)
	for b.Loop() {
		New(verts, tris, nil)
	}
}

func BenchmarkRefit(b *testing.B) {
	tree, verts, _, _ := benchTree(b)
	for b.Loop() {
		tree.Refit(verts)
	}
}

func BenchmarkClosest(b *testing.B) {
	tree, _, _, rays := benchTree(b)
	k := 0
	for b.Loop() {
		tree.Closest(&rays[k%len(rays)])
		k++
	}
}

func BenchmarkBlocked(b *testing.B) {
	tree, _, _, rays := benchTree(b)
	k := 0
	for b.Loop() {
		tree.Blocked(&rays[k%len(rays)], 0, 0.3)
		k++
	}
}
