package render

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// View places the camera: it looks at the model from Azimuth degrees
// around the up axis (0 looks along the model's thinnest horizontal axis,
// at its widest side) and Elevation degrees above the horizon (held
// within ±89.5°). The projection is orthographic: sizes read the same
// everywhere in the picture, which is what judging a rig needs.
type View struct {
	Azimuth, Elevation float64
	// Up is the up axis: 0 for X, 1 for Y, 2 for Z.
	Up int
}

// AutoView chooses a 3/4 view (30° around from the side, 15° above) of a
// model with bounds lo–hi, Y up unless the model is clearly Z-up:
//
//   - A ground plane decides first: a model standing on y = 0 (lowest Y
//     within 2% of the box diagonal of zero) whose Z reaches well below
//     zero is Y-up, and the same with Y and Z swapped is Z-up. Scanned and
//     authored characters usually stand on the origin's ground.
//   - Otherwise a model tallest in Z and less than 0.45 times as thick in
//     Y as in X and Z is Z-up, like a character in a T-pose facing −Y. The
//     margin is wide because a Y-up animal lying down has a similar box
//     (a lion of the shared data: Y 0.53 of X, Z longest).
//   - Otherwise Y, the convention of OBJ, glTF and most capture data.
//
// The extent alone is not a cue: quadrupeds (the horse, cat and lion of
// the shared data) are Y-up and longest in Z. Set Options.View to
// override.
func AutoView(lo, hi linalg.Vec3) View {
	v := View{Azimuth: 30, Elevation: 15, Up: 1}
	e := hi.Sub(lo)
	d := e.Norm()
	if d == 0 || !e.IsFinite() {
		return v
	}
	near := func(x float64) bool { return math.Abs(x) < 0.02*d }
	below := func(x float64) bool { return x < -0.05*d }
	switch {
	case near(lo[1]) && below(lo[2]):
	case near(lo[2]) && below(lo[1]):
		v.Up = 2
	case e[2] >= e[0] && e[1] < 0.45*e[0] && e[1] < 0.45*e[2]:
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
	// Straight up or down the up axis leaves no "right": stop just short.
	el := math.Max(-89.5, math.Min(89.5, v.Elevation)) * math.Pi / 180
	az := v.Azimuth * math.Pi / 180
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
