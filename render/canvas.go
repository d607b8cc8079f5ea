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
	par.For(h, 64, func(lo, hi int) {
		for i := lo * w; i < hi*w; i++ {
			c.rgb[i] = b
			c.depth[i] = math.Inf(-1)
		}
	})
	return c
}

// majority returns the colour of the label with the largest total
// barycentric weight among the corners a, b, d (ties to the earlier).
func majority(a, b, d vertex, w0, w1, w2 float64) [3]float64 {
	sa, sb, sd := w0, w1, w2
	if b.label == a.label {
		sa += w1
	}
	if d.label == a.label {
		sa += w2
	}
	if d.label == b.label {
		sb += w2
	}
	switch {
	case sa >= sb && sa >= sd:
		return a.col
	case sb >= sd:
		return b.col
	}
	return d.col
}

// disc draws a filled circle of radius r with an outline ew wide, at
// depth z: full strength where nothing nearer covers it, faded where hidden.
func (c *canvas) disc(x, y, z, r, ew float64, fill, edge [3]float64) {
	bx := c.cut(x-r-1, x+r+1, y-r-1, y+r+1)
	for py := bx.y0; py <= bx.y1; py++ {
		for px := bx.x0; px <= bx.x1; px++ {
			d := math.Hypot(float64(px)+0.5-x, float64(py)+0.5-y)
			if d > r {
				continue
			}
			col := fill
			if d > r-ew {
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
	bx := c.cut(min(x0, x1)-hw-1, max(x0, x1)+hw+1, min(y0, y1)-hw-1, max(y0, y1)+hw+1)
	for py := bx.y0; py <= bx.y1; py++ {
		for px := bx.x0; px <= bx.x1; px++ {
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

// blend paints an overlay pixel: opaque in front of the surface, 75%
// behind it. A skeleton lies inside its mesh, so hidden is the usual case:
// it must stay clearly visible, the surface showing through only a little.
func (c *canvas) blend(i int, col [3]float64, z float64) {
	a := 1.0
	if z < c.depth[i] {
		a = 0.75
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
	par.For(h, 32, func(lo, hi int) {
		c.downsample(img, ss, n, lo, hi)
	})
	return img
}

// downsample box-filters picture rows [lo, hi).
func (c *canvas) downsample(img *image.RGBA, ss int, n float64, lo, hi int) {
	w := img.Rect.Dx()
	for y := lo; y < hi; y++ {
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
}
