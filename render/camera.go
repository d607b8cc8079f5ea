package render

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// View places the camera: it looks at the model from Azimuth degrees
// around the up axis (0 looks along the model's thinnest horizontal axis,
// at its widest side) and Elevation degrees above the horizon.
type View struct {
	Azimuth, Elevation float64
	// Up is the up axis: 0 for X, 1 for Y, 2 for Z.
	Up int
}

// AutoView chooses a 3/4 view of a model with bounds lo–hi: Y up unless the
// model is clearly Z-up (its Z extent the largest and over 1.5 times its Y
// extent), looking at the widest horizontal side from 30° around and 15°
// above.
func AutoView(lo, hi linalg.Vec3) View {
	e := hi.Sub(lo)
	v := View{Azimuth: 30, Elevation: 15, Up: 1}
	if e[2] > 1.5*e[1] && e[2] >= e[0] {
		v.Up = 2
	}
	return v
}

// camera is an orthographic projection: screen x, y (pixels, y down) and
// depth (larger is nearer).
type camera struct {
	right, up, fwd linalg.Vec3 // fwd points from the model to the viewer
	center         linalg.Vec3
	scale          float64
	w, h           float64
}

func newCamera(v View, lo, hi linalg.Vec3, w, h int) camera {
	up := linalg.Vec3{}
	up[v.Up] = 1
	// The horizontal axes, in right-handed order after up.
	a, b := (v.Up+1)%3, (v.Up+2)%3
	e := hi.Sub(lo)
	// Base view direction: along the thinner horizontal axis.
	base := linalg.Vec3{}
	if e[a] < e[b] {
		base[a] = 1
	} else {
		base[b] = 1
	}
	az, el := v.Azimuth*math.Pi/180, v.Elevation*math.Pi/180
	fwd := linalg.QuatFromAxisAngle(up, az).Rotate(base)
	side := up.Cross(fwd).Unit()
	fwd = linalg.QuatFromAxisAngle(side, -el).Rotate(fwd).Unit()
	right := up.Cross(fwd).Unit()
	camUp := fwd.Cross(right)
	c := camera{right: right, up: camUp, fwd: fwd, center: lo.Add(hi).Scale(0.5), w: float64(w), h: float64(h)}
	// Fit the projected box corners into 85% of the frame.
	var ext [2]float64
	for k := 0; k < 8; k++ {
		p := linalg.Vec3{lo[0], lo[1], lo[2]}
		for a := 0; a < 3; a++ {
			if k&(1<<a) != 0 {
				p[a] = hi[a]
			}
		}
		d := p.Sub(c.center)
		ext[0] = math.Max(ext[0], math.Abs(d.Dot(right)))
		ext[1] = math.Max(ext[1], math.Abs(d.Dot(camUp)))
	}
	c.scale = 0.85 * math.Min(c.w/(2*math.Max(ext[0], 1e-12)), c.h/(2*math.Max(ext[1], 1e-12)))
	return c
}

// project returns screen x, y and depth.
func (c camera) project(p linalg.Vec3) (x, y, z float64) {
	d := p.Sub(c.center)
	return c.w/2 + c.scale*d.Dot(c.right), c.h/2 - c.scale*d.Dot(c.up), d.Dot(c.fwd)
}
