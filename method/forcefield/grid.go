package forcefield

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// cube is the similarity into the unit cube (§3: "we scale the model
// initially so that its bounding box lies just inside an unit cube"):
// x' = (x − lo)·scale, the longest side becoming [0, 1].
type cube struct {
	lo    linalg.Vec3
	scale float64
}

func (c cube) to(p linalg.Vec3) linalg.Vec3   { return p.Sub(c.lo).Scale(c.scale) }
func (c cube) from(p linalg.Vec3) linalg.Vec3 { return p.Scale(1 / c.scale).Add(c.lo) }

// grid is the voxel grid over the unit cube: cells of edge h, with one
// layer of exterior cells padding every side so each interior voxel has
// all 26 neighbours in the grid. Voxel (x, y, z) has index
// x + n[0]·(y + n[1]·z) and its center at origin + h·(x, y, z).
type grid struct {
	n      [3]int
	h      float64
	origin linalg.Vec3
	// off are the index steps to the 26 neighbours, in nbhd order, and
	// step their lengths in voxels (1, √2 or √3).
	off  [26]int
	step [26]float64
}

// newGrid covers a box of the given extent (unit-cube units, longest 1)
// with cells of edge h, centred on it.
func newGrid(extent linalg.Vec3, h float64) *grid {
	g := &grid{h: h}
	for a := 0; a < 3; a++ {
		cells := max(1, int(math.Ceil(extent[a]/h-1e-9)))
		g.n[a] = cells + 2
		// First real cell centre, then one step back for the padding.
		g.origin[a] = extent[a]/2 - float64(cells)*h/2 + h/2 - h
	}
	k := 0
	for dz := -1; dz <= 1; dz++ {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if dx == 0 && dy == 0 && dz == 0 {
					continue
				}
				g.off[k] = dx + g.n[0]*(dy+g.n[1]*dz)
				g.step[k] = math.Sqrt(float64(dx*dx + dy*dy + dz*dz))
				k++
			}
		}
	}
	return g
}

func (g *grid) len() int { return g.n[0] * g.n[1] * g.n[2] }

func (g *grid) index(x, y, z int) int { return x + g.n[0]*(y+g.n[1]*z) }

func (g *grid) coords(id int) (x, y, z int) {
	return id % g.n[0], (id / g.n[0]) % g.n[1], id / (g.n[0] * g.n[1])
}

func (g *grid) center(id int) linalg.Vec3 {
	x, y, z := g.coords(id)
	return linalg.Vec3{
		g.origin[0] + g.h*float64(x),
		g.origin[1] + g.h*float64(y),
		g.origin[2] + g.h*float64(z),
	}
}

// padding reports whether id is in the outer layer.
func (g *grid) padding(id int) bool {
	x, y, z := g.coords(id)
	return x == 0 || y == 0 || z == 0 || x == g.n[0]-1 || y == g.n[1]-1 || z == g.n[2]-1
}
