package contraction_test

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/contraction"
)

// A box four times longer than wide contracts onto its long axis: the
// skeleton of three joints is a chain along x.
func ExampleSkeleton() {
	// A closed box from (−2, −0.5, −0.5) to (2, 0.5, 0.5), each side
	// split into a grid.
	var verts []linalg.Vec3
	var faces [][]int
	index := map[[3]int]int{}
	at := func(p [3]int) int {
		if i, ok := index[p]; ok {
			return i
		}
		index[p] = len(verts)
		verts = append(verts, linalg.Vec3{float64(p[0]) / 4, float64(p[1]) / 4, float64(p[2]) / 4})
		return index[p]
	}
	size := [3]int{8, 2, 2} // half-extents in quarters
	for ax := 0; ax < 3; ax++ {
		u, v := (ax+1)%3, (ax+2)%3
		for _, side := range []int{-1, 1} {
			for a := -size[u]; a < size[u]; a++ {
				for b := -size[v]; b < size[v]; b++ {
					corner := func(da, db int) int {
						var p [3]int
						p[ax], p[u], p[v] = side*size[ax], a+da, b+db
						return at(p)
					}
					q := []int{corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)}
					if side < 0 {
						q[1], q[3] = q[3], q[1]
					}
					faces = append(faces, q)
				}
			}
		}
	}
	m, err := mesh.New(verts, faces)
	if err != nil {
		panic(err)
	}
	s, err := contraction.Skeleton(context.Background(), m, contraction.Options{Joints: 3})
	if err != nil {
		panic(err)
	}
	onAxis := true
	for _, p := range s.Joints {
		onAxis = onAxis && math.Hypot(p[1], p[2]) < 0.05
	}
	fmt.Printf("%d joints, %d bones, on the x axis: %v\n", len(s.Joints), len(s.Edges), onAxis)
	// Output: 3 joints, 2 bones, on the x axis: true
}
