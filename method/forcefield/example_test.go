package forcefield_test

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/forcefield"
)

// The skeleton of a torus keeps its hole: the joints form a ring around
// the core circle, and the exported hierarchy cuts it once.
func ExampleSkeleton() {
	const R, r, n, k = 2.0, 0.5, 48, 12
	var verts []linalg.Vec3
	var faces [][]int
	for i := 0; i < n; i++ {
		u := 2 * math.Pi * float64(i) / n
		for j := 0; j < k; j++ {
			w := 2 * math.Pi * float64(j) / k
			verts = append(verts, linalg.Vec3{(R + r*math.Cos(w)) * math.Cos(u), (R + r*math.Cos(w)) * math.Sin(u), r * math.Sin(w)})
			a, b := i*k+j, ((i+1)%n)*k+j
			faces = append(faces, []int{a, b, ((i+1)%n)*k + (j+1)%k, i*k + (j+1)%k})
		}
	}
	m, _ := mesh.New(verts, faces)
	s, err := forcefield.Skeleton(context.Background(), m, forcefield.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	onRing := true
	for _, p := range s.Joints {
		onRing = onRing && math.Abs(math.Hypot(p[0], p[1])-R) < r/2 && math.Abs(p[2]) < r/2
	}
	parent, _ := s.Tree()
	cut := len(s.Edges) - (len(parent) - 1)
	fmt.Println("joints on the core circle:", onRing)
	fmt.Println("bones minus tree edges (loops):", cut)
	// Output:
	// joints on the core circle: true
	// bones minus tree edges (loops): 1
}
