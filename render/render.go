package render

import (
	"fmt"
	"image"
	"image/color"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// Rig draws r's mesh deformed at frame f of clip c (c < 0, or a rig
// without clips: the rest pose), painted as opt.Paint asks — by default
// with the mesh's own materials and textures when its surface has them,
// else each vertex coloured by its dominant joint —, with the posed
// skeleton on top.
func Rig(r *rig.Rig, c, f int, opt Options) (*image.RGBA, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	opt, err := opt.withDefaults()
	if err != nil {
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
	// One colour per dominant joint, by majority within each triangle:
	// flat regions per bone meeting along crisp lines.
	colors := make([][3]float64, len(verts))
	labels := make([]int, len(verts))
	for i, in := range r.Skin {
		labels[i] = int(in.Dominant())
		colors[i] = JointColor(labels[i])
	}
	var looks []look
	if opt.Paint != PaintJoints {
		looks = paint(r.Mesh)
	}
	if looks == nil && opt.Paint == PaintSurface { // no materials: clay
		for i := range colors {
			colors[i] = clay
		}
		labels = nil
	}
	cv, cam, err := draw(r.Mesh, verts, colors, labels, looks, opt)
	if err != nil {
		return nil, err
	}
	if !opt.NoSkeleton {
		skeleton(cv, cam, &r.Skeleton, pose)
	}
	img := cv.image(supersample)
	if opt.Caption == "" && !opt.NoCaption {
		opt.Caption = rigCaption(r, c, f)
	}
	caption(img, opt.Caption)
	return img, nil
}

// Mesh draws a mesh with the given positions (nil: its own) and per-vertex
// colours (nil: its surface's materials when it has them and opt.Paint
// allows, else a neutral clay). It frames m's own vertices unless
// opt.Bounds is set, so the frames of a sequence share the rest pose's
// camera when m is the rest pose.
func Mesh(m *mesh.Mesh, verts []linalg.Vec3, colors []color.RGBA, opt Options) (*image.RGBA, error) {
	if m == nil {
		return nil, fmt.Errorf("no mesh")
	}
	if verts == nil {
		verts = m.Verts
	}
	if len(verts) != len(m.Verts) || (colors != nil && len(colors) != len(verts)) {
		return nil, fmt.Errorf("%d positions and %d colours for %d vertices", len(verts), len(colors), len(m.Verts))
	}
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	cols := make([][3]float64, len(verts))
	for i := range cols {
		cols[i] = clay
		if colors != nil {
			cols[i] = rgb(colors[i])
		}
	}
	var looks []look
	if colors == nil && opt.Paint != PaintJoints {
		looks = paint(m)
	}
	cv, _, err := draw(m, verts, cols, nil, looks, opt)
	if err != nil {
		return nil, err
	}
	img := cv.image(supersample)
	caption(img, opt.Caption)
	return img, nil
}

// ClipBounds returns the box holding r's mesh over every frame of clip c
// and its rest pose: as Options.Bounds it keeps the camera still across
// the clip.
func ClipBounds(r *rig.Rig, c int) ([2]linalg.Vec3, error) {
	if err := r.Validate(); err != nil {
		return [2]linalg.Vec3{}, err
	}
	if c < 0 || c >= len(r.Clips) {
		return [2]linalg.Vec3{}, fmt.Errorf("clip %d of %d", c+1, len(r.Clips))
	}
	lo, hi := mesh.Bounds(r.Mesh.Verts)
	var buf []linalg.Vec3
	for f := 0; f < r.Clips[c].Frames; f++ {
		buf = r.Frame(buf, c, f)
		flo, fhi := mesh.Bounds(buf)
		lo, hi = lo.Min(flo), hi.Max(fhi)
	}
	return [2]linalg.Vec3{lo, hi}, nil
}
