package skeletonshape

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// pointGrid answers nearest-point queries within a radius over a fixed
// point set: points bucketed in cubes of edge cell.
type pointGrid struct {
	pts   []linalg.Vec3
	lo    linalg.Vec3
	cell  float64
	dim   [3]int
	start []int32 // per cell, into idx (CSR)
	idx   []int32
}

func newPointGrid(pts []linalg.Vec3, cell float64) *pointGrid {
	lo, hi := linalg.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, linalg.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		lo, hi = lo.Min(p), hi.Max(p)
	}
	g := &pointGrid{pts: pts, lo: lo, cell: cell}
	for k := 0; k < 3; k++ {
		g.dim[k] = int((hi[k]-lo[k])/cell) + 1
	}
	nc := g.dim[0] * g.dim[1] * g.dim[2]
	g.start = make([]int32, nc+1)
	cellOf := make([]int32, len(pts))
	for i, p := range pts {
		c := g.index(g.coords(p))
		cellOf[i] = int32(c)
		g.start[c+1]++
	}
	for c := 0; c < nc; c++ {
		g.start[c+1] += g.start[c]
	}
	g.idx = make([]int32, len(pts))
	fill := append([]int32(nil), g.start[:nc]...)
	for i, c := range cellOf {
		g.idx[fill[c]] = int32(i)
		fill[c]++
	}
	return g
}

func (g *pointGrid) coords(p linalg.Vec3) [3]int {
	var c [3]int
	for k := 0; k < 3; k++ {
		c[k] = int(math.Floor((p[k] - g.lo[k]) / g.cell))
	}
	return c
}

func (g *pointGrid) index(c [3]int) int {
	for k := 0; k < 3; k++ {
		c[k] = min(max(c[k], 0), g.dim[k]-1)
	}
	return (c[2]*g.dim[1]+c[1])*g.dim[0] + c[0]
}

// nearest returns the index of the point nearest to p and its distance,
// or -1 and r when none lies within r. Rings of cells are searched
// outwards until the best distance is under the next ring's reach.
func (g *pointGrid) nearest(p linalg.Vec3, r float64) (int, float64) {
	best, bd := -1, r*r
	c := g.coords(p)
	reach := int(math.Ceil(r/g.cell)) + 1
	for ring := 0; ring <= reach; ring++ {
		if ring > 1 {
			inner := float64(ring-1) * g.cell
			if inner*inner >= bd {
				break
			}
		}
		for z := c[2] - ring; z <= c[2]+ring; z++ {
			if z < 0 || z >= g.dim[2] {
				continue
			}
			for y := c[1] - ring; y <= c[1]+ring; y++ {
				if y < 0 || y >= g.dim[1] {
					continue
				}
				edge := z == c[2]-ring || z == c[2]+ring || y == c[1]-ring || y == c[1]+ring
				dx := 1
				if !edge {
					dx = max(2*ring, 1) // only the ring's two end cells
				}
				for x := c[0] - ring; x <= c[0]+ring; x += dx {
					if x < 0 || x >= g.dim[0] {
						continue
					}
					cc := (z*g.dim[1]+y)*g.dim[0] + x
					for _, i := range g.idx[g.start[cc]:g.start[cc+1]] {
						if d := g.pts[i].Sub(p).Norm2(); d < bd {
							best, bd = int(i), d
						}
					}
				}
			}
		}
	}
	if best < 0 {
		return -1, r
	}
	return best, math.Sqrt(bd)
}
