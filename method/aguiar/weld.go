package aguiar

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// weldTolerance is the distance, in unit-sphere units, within which two
// rest vertices count as one point; tearTolerance is how far such copies
// may drift apart in a frame and still be one (RiggedSimple's pieces,
// weighted apart, tear by 0.033 as they bend).
const weldTolerance, tearTolerance = 1e-6, 0.05

// welded is a mesh animation with coincident vertices merged: files split
// along texture or normal seams (Fox.glb is a triangle soup, CesiumMan
// has 138 pieces) are one surface for patch adjacency (§5) and heat
// diffusion (§7), which both follow the triangles.
type welded struct {
	// Of maps each input vertex to its welded vertex.
	Of []int32
	// Rest, Frames (F·N frame-major) and Tris are the welded mesh;
	// triangles that collapse are dropped.
	Rest, Frames []linalg.Vec3
	Tris         [][3]int
}

// weld merges the vertices that lie within tol of each other in the rest
// pose and within tear in every one of the f frames; vertices that only
// meet at rest (lips, fingertips touching) stay apart. A welded vertex
// moves as its first copy.
func weld(rest, frames []linalg.Vec3, tris [][3]int, f int, tol, tear float64) welded {
	n := len(rest)
	type cell [3]int64
	at := func(p linalg.Vec3) cell {
		return cell{int64(math.Floor(p[0] / tol)), int64(math.Floor(p[1] / tol)), int64(math.Floor(p[2] / tol))}
	}
	same := func(i, j int) bool {
		if rest[i].Dist(rest[j]) > tol {
			return false
		}
		for k := 0; k < f; k++ {
			if frames[k*n+i].Dist(frames[k*n+j]) > tear {
				return false
			}
		}
		return true
	}
	grid := map[cell][]int{}
	w := welded{Of: make([]int32, n)}
	var first []int // welded vertex → its first input vertex
	for i, p := range rest {
		c := at(p)
		w.Of[i] = -1
	search:
		for dx := int64(-1); dx <= 1; dx++ {
			for dy := int64(-1); dy <= 1; dy++ {
				for dz := int64(-1); dz <= 1; dz++ {
					for _, j := range grid[cell{c[0] + dx, c[1] + dy, c[2] + dz}] {
						if same(i, j) {
							w.Of[i] = w.Of[j]
							break search
						}
					}
				}
			}
		}
		if w.Of[i] < 0 {
			w.Of[i] = int32(len(first))
			first = append(first, i)
			grid[c] = append(grid[c], i)
		}
	}
	nw := len(first)
	w.Rest = make([]linalg.Vec3, nw)
	w.Frames = make([]linalg.Vec3, f*nw)
	for v, i := range first {
		w.Rest[v] = rest[i]
		for k := 0; k < f; k++ {
			w.Frames[k*nw+v] = frames[k*n+i]
		}
	}
	for _, t := range tris {
		a, b, c := int(w.Of[t[0]]), int(w.Of[t[1]]), int(w.Of[t[2]])
		if a != b && b != c && a != c {
			w.Tris = append(w.Tris, [3]int{a, b, c})
		}
	}
	return w
}
