package skinweights_test

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/method/static"
)

// A square tube along x bound to two bones meeting at x = 2: heat gives
// each end to its bone and blends the two around the joint.
func ExampleCompute() {
	var verts []linalg.Vec3
	var polys [][]int
	const rings = 10
	for r := 0; r < rings; r++ {
		x := 4 * float64(r) / (rings - 1)
		for a := 0; a < 4; a++ {
			th := math.Pi / 2 * float64(a)
			verts = append(verts, linalg.Vec3{x, 0.3 * math.Cos(th), 0.3 * math.Sin(th)})
			if r > 0 {
				i, j := r*4+a, r*4+(a+1)%4
				polys = append(polys, []int{i - 4, j - 4, j, i})
			}
		}
	}
	m, _ := mesh.New(verts, polys)
	skel := &static.Skeleton{Joints: []linalg.Vec3{{0, 0, 0}, {2, 0, 0}, {4, 0, 0}}, Edges: [][2]int{{0, 1}, {1, 2}}}
	skin, err := skinweights.Compute(m, skel, skinweights.Heat, skinweights.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for r := 0; r < rings; r++ {
		in := skin[r*4]
		w := [2]float64{}
		for k, j := range in.Joint {
			if j < 2 {
				w[j] += in.Weight[k]
			}
		}
		fmt.Printf("x = %.1f: joint 0 %.2f, joint 1 %.2f\n", verts[r*4][0], w[0], w[1])
	}
	r, _ := skel.Rig(m, skin)
	fmt.Println(r.Skeleton.Len(), "joints, root", r.Skeleton.Joints[0].Name)
	// Output:
	// x = 0.0: joint 0 1.00, joint 1 0.00
	// x = 0.4: joint 0 1.00, joint 1 0.00
	// x = 0.9: joint 0 0.99, joint 1 0.01
	// x = 1.3: joint 0 0.95, joint 1 0.05
	// x = 1.8: joint 0 0.80, joint 1 0.20
	// x = 2.2: joint 0 0.20, joint 1 0.80
	// x = 2.7: joint 0 0.05, joint 1 0.95
	// x = 3.1: joint 0 0.01, joint 1 0.99
	// x = 3.6: joint 0 0.00, joint 1 1.00
	// x = 4.0: joint 0 0.00, joint 1 1.00
	// 3 joints, root root
}
