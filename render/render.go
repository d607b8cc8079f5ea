package render

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// Options controls a picture. The zero value draws 800×600 on a light
// background from an automatic camera.
type Options struct {
	Width, Height int
	// View places the camera; nil chooses AutoView of the bounds.
	View *View
	// Bounds frame the picture (lo, hi); nil uses the rest pose's box.
	Bounds *[2]linalg.Vec3
	// Background defaults to a light grey.
	Background color.RGBA
	// NoSkeleton leaves the skeleton out.
	NoSkeleton bool
	// Caption is written in the top-left corner when set.
	Caption string
}

const supersample = 2

func (o Options) withDefaults() Options {
	if o.Width <= 0 {
		o.Width = 800
	}
	if o.Height <= 0 {
		o.Height = 600
	}
	if o.Background == (color.RGBA{}) {
		o.Background = color.RGBA{238, 238, 242, 255}
	}
	return o
}

// Rig draws r's mesh deformed at frame f of clip c (c < 0, or a rig
// without clips: the rest pose), coloured by dominant joint, with the
// posed skeleton on top.
func Rig(r *rig.Rig, c, f int, opt Options) (*image.RGBA, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	verts := r.Mesh.Verts
	var pose []linalg.Affine
	if c >= 0 && c < len(r.Clips) {
		if f < 0 || f >= r.Clips[c].Frames {
			return nil, fmt.Errorf("frame %d out of range (clip %q has %d)", f+1, r.Clips[c].Name, r.Clips[c].Frames)
		}
		pose = r.Skeleton.Pose(&r.Clips[c], f, nil)
		verts = r.Frame(nil, c, f)
	} else {
		pose = r.Skeleton.RestPose()
	}
	colors := make([][3]float64, len(verts))
	for i, in := range r.Skin {
		// Blend joint colours by weight: joints read as soft regions.
		for k, w := range in.Weight {
			jc := jointColor(int(in.Joint[k]))
			for a := 0; a < 3; a++ {
				colors[i][a] += w * jc[a]
			}
		}
	}
	opt = opt.withDefaults()
	cv, cam := draw(r.Mesh, verts, colors, opt)
	if !opt.NoSkeleton {
		skeleton(cv, cam, &r.Skeleton, pose)
	}
	img := cv.image(supersample)
	caption(img, opt.Caption)
	return img, nil
}

// Mesh draws a mesh with the given positions (nil: its own) and per-vertex
// colours (nil: a neutral clay).
func Mesh(m *mesh.Mesh, verts []linalg.Vec3, colors []color.RGBA, opt Options) (*image.RGBA, error) {
	if verts == nil {
		verts = m.Verts
	}
	if len(verts) != len(m.Verts) || (colors != nil && len(colors) != len(verts)) {
		return nil, fmt.Errorf("%d positions and %d colours for %d vertices", len(verts), len(colors), len(m.Verts))
	}
	cols := make([][3]float64, len(verts))
	for i := range cols {
		cols[i] = [3]float64{0.78, 0.74, 0.68}
		if colors != nil {
			cols[i] = rgb(colors[i])
		}
	}
	opt = opt.withDefaults()
	cv, _ := draw(m, verts, cols, opt)
	img := cv.image(supersample)
	caption(img, opt.Caption)
	return img, nil
}

// draw shades and rasterizes the mesh; it returns the canvas and camera.
func draw(m *mesh.Mesh, verts []linalg.Vec3, colors [][3]float64, opt Options) (*canvas, camera) {
	lo, hi := mesh.Bounds(m.Verts)
	if opt.Bounds != nil {
		lo, hi = opt.Bounds[0], opt.Bounds[1]
	}
	// Frame the posed mesh too, so a character that walks off stays in view.
	plo, phi := mesh.Bounds(verts)
	lo, hi = lo.Min(plo), hi.Max(phi)
	v := AutoView(mesh.Bounds(m.Verts))
	if opt.View != nil {
		v = *opt.View
	}
	w, h := opt.Width*supersample, opt.Height*supersample
	cam := newCamera(v, lo, hi, w, h)
	cv := newCanvas(w, h, opt.Background)
	normals := mesh.VertexNormals(verts, m.Tris)
	// A key light from the upper left of the camera, plus ambient; both
	// sides of a face are lit.
	light := cam.fwd.Add(cam.up.Scale(0.6)).Add(cam.right.Scale(-0.4)).Unit()
	vs := make([]vertex, len(verts))
	for i, p := range verts {
		x, y, z := cam.project(p)
		lambert := math.Abs(normals[i].Dot(light))
		s := 0.35 + 0.65*lambert
		vs[i] = vertex{x: x, y: y, z: z, col: [3]float64{colors[i][0] * s, colors[i][1] * s, colors[i][2] * s}}
	}
	cv.triangles(vs, m.Tris)
	return cv, cam
}

// skeleton draws bones as lines from parent to child heads and joints as
// discs; the root is larger and red.
func skeleton(cv *canvas, cam camera, s *rig.Skeleton, pose []linalg.Affine) {
	scale := float64(cv.w) / 800
	head := make([][3]float64, s.Len())
	for j := range s.Joints {
		x, y, z := cam.project(pose[j].T)
		head[j] = [3]float64{x, y, z}
	}
	dark := [3]float64{0.12, 0.12, 0.14}
	light := [3]float64{0.97, 0.97, 0.97}
	for j, jt := range s.Joints {
		if jt.Parent == rig.NoParent {
			continue
		}
		a, b := head[jt.Parent], head[j]
		cv.line(a[0], a[1], a[2], b[0], b[1], b[2], 3.2*scale, dark)
		cv.line(a[0], a[1], a[2], b[0], b[1], b[2], 1.4*scale, light)
	}
	for j, jt := range s.Joints {
		p := head[j]
		if jt.Parent == rig.NoParent {
			cv.disc(p[0], p[1], p[2], 8*scale, [3]float64{0.86, 0.16, 0.16}, dark)
		} else {
			cv.disc(p[0], p[1], p[2], 5.5*scale, [3]float64{1, 0.78, 0.2}, dark)
		}
	}
}

// caption writes text in the top-left corner.
func caption(img *image.RGBA, text string) {
	if text == "" {
		return
	}
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{40, 40, 48, 255}), Face: basicfont.Face7x13,
		Dot: fixed.P(10, 20)}
	d.DrawString(text)
}

// Encode writes img as PNG.
func Encode(w io.Writer, img image.Image) error { return png.Encode(w, img) }

// WritePNG writes img to path through a temporary file; it refuses to
// overwrite any of inputs.
func WritePNG(path string, img image.Image, inputs ...string) error {
	return safefile.Write(path, func(w io.Writer) error { return png.Encode(w, img) }, inputs...)
}
