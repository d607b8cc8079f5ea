package render

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
)

// vertex is a projected, shaded vertex.
type vertex struct {
	x, y, z float64
	col     [3]float64 // unlit colour
	shade   float64    // light factor
	// label ≥ 0 names a region (a dominant joint); in a triangle whose
	// corners all carry labels each pixel takes the colour of the label
	// with the largest barycentric share instead of a blend, so regions
	// meet along crisp lines even across large triangles of low-poly
	// meshes. −1 blends colours.
	label int
}

// pixbox is a triangle's pixel rectangle on the canvas, bounds included.
type pixbox struct{ x0, x1, y0, y1 int }

// band is the height of the horizontal strips rasterized in parallel.
const band = 32

// triangles rasterizes tris (indices into vs) in parallel horizontal
// bands. Each triangle is binned to the bands its box touches, in mesh
// order; each band owns its rows and draws its triangles in that order,
// so the result does not depend on the schedule. looks, when not nil,
// paints each triangle from its material instead of the vertex colours.
func (c *canvas) triangles(vs []vertex, tris [][3]int, looks []look) {
	nb := (c.h + band - 1) / band
	boxes := make([]pixbox, len(tris))
	start := make([]int, nb+1)
	for t, tri := range tris {
		a, b, d := vs[tri[0]], vs[tri[1]], vs[tri[2]]
		bx := c.cut(min(a.x, b.x, d.x), max(a.x, b.x, d.x), min(a.y, b.y, d.y), max(a.y, b.y, d.y))
		if (b.x-a.x)*(d.y-a.y)-(b.y-a.y)*(d.x-a.x) == 0 {
			bx = pixbox{x0: 1, y0: 1} // degenerate: empty
		}
		boxes[t] = bx
		for k := bx.y0 / band; bx.y0 <= bx.y1 && bx.x0 <= bx.x1 && k <= bx.y1/band; k++ {
			start[k+1]++
		}
	}
	for k := 0; k < nb; k++ {
		start[k+1] += start[k]
	}
	bins, next := make([]int32, start[nb]), append([]int(nil), start[:nb]...)
	for t, bx := range boxes {
		for k := bx.y0 / band; bx.y0 <= bx.y1 && bx.x0 <= bx.x1 && k <= bx.y1/band; k++ {
			bins[next[k]] = int32(t)
			next[k]++
		}
	}
	par.For(nb, 1, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			y0, y1 := k*band, min((k+1)*band, c.h)
			for _, t := range bins[start[k]:start[k+1]] {
				tri := tris[t]
				var lk *look
				if looks != nil {
					lk = &looks[t]
				}
				c.triangle(vs[tri[0]], vs[tri[1]], vs[tri[2]], boxes[t], y0, y1, lk)
			}
		}
	})
}

// cut returns the pixels whose centres may lie in the screen box
// [x0, x1]×[y0, y1], clipped to the canvas (x0 > x1 or y0 > y1 when none).
func (c *canvas) cut(x0, x1, y0, y1 float64) pixbox {
	clamp := func(v float64, n int) int { return int(max(-1, min(float64(n), v))) }
	return pixbox{
		x0: max(clamp(math.Floor(x0), c.w), 0), x1: min(clamp(math.Ceil(x1), c.w), c.w-1),
		y0: max(clamp(math.Floor(y0), c.h), 0), y1: min(clamp(math.Ceil(y1), c.h), c.h-1),
	}
}

// triangle fills the pixels of one triangle, whose pixel box is bx,
// within rows [y0, y1), painted by lk when it is not nil.
func (c *canvas) triangle(a, b, d vertex, bx pixbox, y0, y1 int, lk *look) {
	minY, maxY, minX, maxX := max(bx.y0, y0), min(bx.y1, y1-1), bx.x0, bx.x1
	area := (b.x-a.x)*(d.y-a.y) - (b.y-a.y)*(d.x-a.x)
	inv := 1 / area
	for y := minY; y <= maxY; y++ {
		py := float64(y) + 0.5
		for x := minX; x <= maxX; x++ {
			px := float64(x) + 0.5
			w0 := ((b.x-px)*(d.y-py) - (b.y-py)*(d.x-px)) * inv
			w1 := ((d.x-px)*(a.y-py) - (d.y-py)*(a.x-px)) * inv
			w2 := 1 - w0 - w1
			if !(w0 >= 0 && w1 >= 0 && w2 >= 0) { // also rejects NaN
				continue
			}
			z := w0*a.z + w1*b.z + w2*d.z
			i := y*c.w + x
			if z <= c.depth[i] {
				continue
			}
			c.depth[i] = z
			shade := w0*a.shade + w1*b.shade + w2*d.shade
			if lk != nil {
				col := lk.colour(w0, w1, w2)
				for k := 0; k < 3; k++ {
					c.rgb[i][k] = shade * col[k]
				}
				continue
			}
			if a.label >= 0 && b.label >= 0 && d.label >= 0 {
				col := majority(a, b, d, w0, w1, w2)
				for k := 0; k < 3; k++ {
					c.rgb[i][k] = shade * col[k]
				}
				continue
			}
			for k := 0; k < 3; k++ {
				c.rgb[i][k] = shade * (w0*a.col[k] + w1*b.col[k] + w2*d.col[k])
			}
		}
	}
}
