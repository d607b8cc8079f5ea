package forcefield

import (
	"math"
	"slices"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/internal/par"
)

// interior decides which voxel centres lie inside the mesh (§3.2: the
// voxel centres are sampled directly and classified by ray intersection).
//
// Each axis casts one line per column of voxel centres and counts
// crossings per mesh component: a centre is inside when it lies inside
// any component by parity, so overlapping shells (a limb pushed into a
// body) give their union, not a hole where they overlap. Lines are moved
// by a tiny fixed offset so they do not run exactly through the edges of
// grid-aligned meshes, and the three axes vote (two of three), so a line
// that still grazes an edge, or leaks through a hole of an open mesh,
// flips voxels on one axis only. Finally enclosed cavities (exterior
// voxels the outside cannot reach through faces) are filled: a cavity
// would thin to a closed surface, not a curve.
//
// It returns the inside flag per voxel and the number of cavity voxels
// filled.
func interior(g *grid, b *bvh.Tree) ([]bool, int) {
	votes := make([]uint8, g.len())
	for a := 0; a < 3; a++ {
		ax, bx := (a+1)%3, (a+2)%3
		nu, nv := g.n[ax]-2, g.n[bx]-2
		// Irrational fractions of a voxel, different per axis.
		ju := g.h * 1e-4 * (math.Sqrt2 - 1 + float64(a)*0.1)
		jv := g.h * 1e-4 * (math.Sqrt(3) - 1 - float64(a)*0.1)
		par.For(nu*nv, 64, func(lo, hi int) {
			var hits []bvh.Crossing
			in := make([]bool, g.n[a])
			for col := lo; col < hi; col++ {
				j, k := 1+col%nu, 1+col/nu
				u := g.origin[ax] + g.h*float64(j) + ju
				v := g.origin[bx] + g.h*float64(k) + jv
				hits = b.Line(a, u, v, hits[:0])
				if len(hits) == 0 {
					continue
				}
				clear(in)
				markInside(in, hits, g.origin[a], g.h)
				var c [3]int
				c[ax], c[bx] = j, k
				for x := 1; x < g.n[a]-1; x++ {
					if in[x] {
						c[a] = x
						votes[g.index(c[0], c[1], c[2])]++
					}
				}
			}
		})
	}
	inside := make([]bool, g.len())
	for id, n := range votes {
		inside[id] = n >= 2
	}
	return inside, fillCavities(g, inside)
}

// markInside sets in[x] for the cells whose centre origin + h·x lies
// between an odd and the next even crossing of one component (or after
// a component's last crossing when it has an odd number: an open part).
func markInside(in []bool, hits []bvh.Crossing, origin, h float64) {
	slices.SortFunc(hits, func(p, q bvh.Crossing) int {
		if p.Part != q.Part {
			return int(p.Part - q.Part)
		}
		if p.T < q.T {
			return -1
		}
		if p.T > q.T {
			return 1
		}
		return 0
	})
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j].Part == hits[i].Part {
			j++
		}
		for k := i; k < j; k += 2 {
			t0, t1 := hits[k].T, math.Inf(1)
			if k+1 < j {
				t1 = hits[k+1].T
			}
			x0 := max(1, int(math.Ceil((t0-origin)/h)))
			x1 := len(in) - 2
			if !math.IsInf(t1, 1) {
				x1 = min(x1, int(math.Floor((t1-origin)/h)))
			}
			for x := x0; x <= x1; x++ {
				in[x] = true
			}
		}
		i = j
	}
}

// fillCavities marks as inside every outside voxel that the padding
// cannot reach through face-adjacent (6-connected) outside voxels, and
// returns how many it marked. Outside voxels use 6-adjacency because the
// inside uses 26: the pair keeps digital topology consistent.
func fillCavities(g *grid, inside []bool) int {
	seen := make([]bool, g.len())
	var queue []int
	for id := range inside {
		if g.padding(id) {
			seen[id] = true
			queue = append(queue, id)
		}
	}
	face := [6]int{1, -1, g.n[0], -g.n[0], g.n[0] * g.n[1], -g.n[0] * g.n[1]}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if g.padding(id) {
			// Steps out of the grid wrap around; follow only real cells.
			x, y, z := g.coords(id)
			for a, d := range [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
				nx, ny, nz := x+d[0], y+d[1], z+d[2]
				if nx < 0 || ny < 0 || nz < 0 || nx >= g.n[0] || ny >= g.n[1] || nz >= g.n[2] {
					continue
				}
				if nb := id + face[a]; !seen[nb] && !inside[nb] {
					seen[nb] = true
					queue = append(queue, nb)
				}
			}
			continue
		}
		for _, s := range face {
			if nb := id + s; !seen[nb] && !inside[nb] {
				seen[nb] = true
				queue = append(queue, nb)
			}
		}
	}
	filled := 0
	for id := range inside {
		if !inside[id] && !seen[id] {
			inside[id] = true
			filled++
		}
	}
	return filled
}
