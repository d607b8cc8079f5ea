package render

import (
	"fmt"
	"image/color"
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Options controls a picture. The zero value draws 800×600 on a light
// background from an automatic camera, with an automatic caption for rigs.
type Options struct {
	Width, Height int
	// View places the camera; nil chooses AutoView of the bounds.
	View *View
	// Bounds frame the picture (lo, hi); nil uses the rest pose's box, so
	// every frame of one rig or sequence is drawn from the same place.
	Bounds *[2]linalg.Vec3
	// Background defaults to a light grey.
	Background color.RGBA
	// NoSkeleton leaves the skeleton out.
	NoSkeleton bool
	// Paint chooses the colours: the zero value shows the mesh's
	// materials when it has them (mesh.Surface), else joints.
	Paint Paint
	// Caption is written in the top-left corner. Rig fills an empty one
	// with the clip, frame and bone count unless NoCaption is set.
	Caption   string
	NoCaption bool
}

// supersample is the anti-aliasing factor: the canvas is this many times
// larger in each direction and box-filtered down.
const supersample = 2

// maxSide keeps the canvas allocation sane for nonsense sizes.
const maxSide = 8192

func (o Options) withDefaults() (Options, error) {
	if o.Width <= 0 {
		o.Width = 800
	}
	if o.Height <= 0 {
		o.Height = 600
	}
	if o.Width > maxSide || o.Height > maxSide {
		return o, fmt.Errorf("picture %d×%d larger than %d pixels a side", o.Width, o.Height, maxSide)
	}
	if o.Background == (color.RGBA{}) {
		o.Background = color.RGBA{238, 238, 242, 255}
	}
	if v := o.View; v != nil {
		if v.Up < 0 || v.Up > 2 {
			return o, fmt.Errorf("up axis %d is not 0 (X), 1 (Y) or 2 (Z)", v.Up)
		}
		if math.IsNaN(v.Azimuth) || math.IsInf(v.Azimuth, 0) || math.IsNaN(v.Elevation) || math.IsInf(v.Elevation, 0) {
			return o, fmt.Errorf("camera at azimuth %g°, elevation %g°", v.Azimuth, v.Elevation)
		}
	}
	if b := o.Bounds; b != nil {
		if !b[0].IsFinite() || !b[1].IsFinite() || b[0][0] > b[1][0] || b[0][1] > b[1][1] || b[0][2] > b[1][2] {
			return o, fmt.Errorf("bounds %v–%v are not a box", b[0], b[1])
		}
	}
	return o, nil
}
