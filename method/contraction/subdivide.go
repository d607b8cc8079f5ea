package contraction

import "github.com/meshrig/meshrig/linalg"

// subdivide splits every triangle into four at its edge midpoints,
// appending one vertex per edge after pos. The surface keeps its shape;
// it only gains samples.
func subdivide(pos []linalg.Vec3, tris [][3]int) ([]linalg.Vec3, [][3]int) {
	mid := make(map[[2]int]int, 3*len(tris)/2)
	at := func(a, b int) int {
		if a > b {
			a, b = b, a
		}
		if k, ok := mid[[2]int{a, b}]; ok {
			return k
		}
		k := len(pos)
		pos = append(pos, pos[a].Add(pos[b]).Scale(0.5))
		mid[[2]int{a, b}] = k
		return k
	}
	out := make([][3]int, 0, 4*len(tris))
	for _, f := range tris {
		ab, bc, ca := at(f[0], f[1]), at(f[1], f[2]), at(f[2], f[0])
		out = append(out, [3]int{f[0], ab, ca}, [3]int{ab, f[1], bc}, [3]int{ca, bc, f[2]}, [3]int{ab, bc, ca})
	}
	return pos, out
}
