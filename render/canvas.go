package render

import (
	"image"
	"image/color"
	"math"

	"github.com/meshrig/meshrig/internal/par"
)

// canvas is a supersampled colour and depth buffer.
type canvas struct {
	w, h  int
	rgb   [][3]float64
	depth []float64 // larger is nearer; -Inf where empty
}

func newCanvas(w, h int, bg color.RGBA) *canvas {
	c := &canvas{w: w, h: h, rgb: make([][3]float64, w*h), depth: make([]float64, w*h)}
	b := rgb(bg)
	for i := range c.rgb {
		c.rgb[i] = b
		c.depth[i] = math.Inf(-1)
	}
	return c
}

// vertex is a projected, shaded vertex.
type vertex struct {
	x, y, z float64
	col     [3]float64 // lit colour
}

// triangles rasterizes tris (indices into vs) in parallel horizontal
// bands; each band owns its rows, so the result does not depend on the
// schedule.
func (c *canvas) triangles(vs []vertex, tris [][3]int) {
	const band = 32
	par.For((c.h+band-1)/band, 1, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			y0, y1 := b*band, min((b+1)*band, c.h)
			for _, t := range tris {
				c.triangle(vs[t[0]], vs[t[1]], vs[t[2]], y0, y1)
			}
		}
	})
}

// triangle fills the pixels of one triangle within rows [y0, y1).
func (c *canvas) triangle(a, b, d vertex, y0, y1 int) {
	minY := int(math.Max(float64(y0), math.Floor(math.Min(a.y, math.Min(b.y, d.y)))))
	maxY := int(math.Min(float64(y1-1), math.Ceil(math.Max(a.y, math.Max(b.y, d.y)))))
	if minY > maxY {
		return
	}
	minX := int(math.Max(0, math.Floor(math.Min(a.x, math.Min(b.x, d.x)))))
	maxX := int(math.Min(float64(c.w-1), math.Ceil(math.Max(a.x, math.Max(b.x, d.x)))))
	area := (b.x-a.x)*(d.y-a.y) - (b.y-a.y)*(d.x-a.x)
	if area == 0 || minX > maxX {
		return
	}
	inv := 1 / area
	for y := minY; y <= maxY; y++ {
		py := float64(y) + 0.5
		for x := minX; x <= maxX; x++ {
			px := float64(x) + 0.5
			w0 := ((b.x-px)*(d.y-py) - (b.y-py)*(d.x-px)) * inv
			w1 := ((d.x-px)*(a.y-py) - (d.y-py)*(a.x-px)) * inv
			w2 := 1 - w0 - w1
			if w0 < 0 || w1 < 0 || w2 < 0 {
				continue
			}
			z := w0*a.z + w1*b.z + w2*d.z
			i := y*c.w + x
			if z <= c.depth[i] {
				continue
			}
			c.depth[i] = z
			for k := 0; k < 3; k++ {
				c.rgb[i][k] = w0*a.col[k] + w1*b.col[k] + w2*d.col[k]
			}
		}
	}
}

// disc draws a filled circle of radius r with an outline, at depth z:
// full strength where nothing nearer covers it, faded where hidden.
func (c *canvas) disc(x, y, z, r float64, fill, edge [3]float64) {
	for py := int(y - r - 1); py <= int(y+r+1); py++ {
		for px := int(x - r - 1); px <= int(x+r+1); px++ {
			if px < 0 || py < 0 || px >= c.w || py >= c.h {
				continue
			}
			d := math.Hypot(float64(px)+0.5-x, float64(py)+0.5-y)
			if d > r {
				continue
			}
			col := fill
			if d > r-1.6 {
				col = edge
			}
			c.blend(py*c.w+px, col, z)
		}
	}
}

// line draws a segment of half-width hw from (x0,y0,z0) to (x1,y1,z1).
func (c *canvas) line(x0, y0, z0, x1, y1, z1, hw float64, col [3]float64) {
	dx, dy := x1-x0, y1-y0
	l2 := dx*dx + dy*dy
	for py := int(math.Min(y0, y1) - hw - 1); py <= int(math.Max(y0, y1)+hw+1); py++ {
		for px := int(math.Min(x0, x1) - hw - 1); px <= int(math.Max(x0, x1)+hw+1); px++ {
			if px < 0 || py < 0 || px >= c.w || py >= c.h {
				continue
			}
			fx, fy := float64(px)+0.5, float64(py)+0.5
			t := 0.0
			if l2 > 0 {
				t = math.Max(0, math.Min(1, ((fx-x0)*dx+(fy-y0)*dy)/l2))
			}
			if math.Hypot(fx-(x0+t*dx), fy-(y0+t*dy)) > hw {
				continue
			}
			c.blend(py*c.w+px, col, z0+t*(z1-z0))
		}
	}
}

// blend paints an overlay pixel: opaque in front of the surface, 45%
// behind it, so the skeleton shows through the mesh.
func (c *canvas) blend(i int, col [3]float64, z float64) {
	a := 1.0
	if z < c.depth[i] {
		a = 0.45
	}
	for k := 0; k < 3; k++ {
		c.rgb[i][k] = a*col[k] + (1-a)*c.rgb[i][k]
	}
}

// image box-filters the canvas down by factor ss.
func (c *canvas) image(ss int) *image.RGBA {
	w, h := c.w/ss, c.h/ss
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	n := float64(ss * ss)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s [3]float64
			for dy := 0; dy < ss; dy++ {
				for dx := 0; dx < ss; dx++ {
					p := c.rgb[(y*ss+dy)*c.w+x*ss+dx]
					s[0], s[1], s[2] = s[0]+p[0], s[1]+p[1], s[2]+p[2]
				}
			}
			o := img.PixOffset(x, y)
			for k := 0; k < 3; k++ {
				img.Pix[o+k] = uint8(math.Round(255 * math.Max(0, math.Min(1, s[k]/n))))
			}
			img.Pix[o+3] = 255
		}
	}
	return img
}
