package render

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// draw shades and rasterizes the mesh; it returns the canvas and camera.
// labels (nil, or one per vertex) name colour regions; see vertex.label.
// looks (nil, or one per triangle) paint triangles from their materials.
func draw(m *mesh.Mesh, verts []linalg.Vec3, colors [][3]float64, labels []int, looks []look, opt Options) (*canvas, camera, error) {
	if err := check(m, verts); err != nil {
		return nil, camera{}, err
	}
	lo, hi := mesh.Bounds(m.Verts)
	if opt.Bounds != nil {
		lo, hi = opt.Bounds[0], opt.Bounds[1]
	}
	v := AutoView(lo, hi)
	if opt.View != nil {
		v = *opt.View
	}
	if opt.Bounds == nil {
		// Frame the posed mesh too, so a character that walks off stays
		// in view; explicit bounds (ClipBounds) hold the camera still.
		plo, phi := mesh.Bounds(verts)
		lo, hi = lo.Min(plo), hi.Max(phi)
	}
	w, h := opt.Width*supersample, opt.Height*supersample
	cam := newCamera(v, lo, hi, w, h)
	cv := newCanvas(w, h, opt.Background)
	normals := mesh.VertexNormals(verts, m.Tris)
	// A key light from just above and left of the camera, plus ambient;
	// |n·l| lights both sides of a face, so open meshes and flipped
	// windings look the same as closed ones.
	light := cam.fwd.Add(cam.up.Scale(0.6)).Add(cam.right.Scale(-0.4)).Unit()
	vs := make([]vertex, len(verts))
	for i, p := range verts {
		x, y, z := cam.project(p)
		lambert := math.Abs(normals[i].Dot(light))
		if math.IsNaN(lambert) { // isolated or degenerate vertex
			lambert = 0
		}
		vs[i] = vertex{x: x, y: y, z: z, col: colors[i], shade: 0.35 + 0.65*lambert, label: -1}
		if labels != nil {
			vs[i].label = labels[i]
		}
	}
	cv.triangles(vs, m.Tris, looks)
	return cv, cam, nil
}

// check refuses what the rasterizer cannot draw: triangles naming missing
// vertices and positions that are not finite numbers.
func check(m *mesh.Mesh, verts []linalg.Vec3) error {
	for i, p := range verts {
		if !p.IsFinite() {
			return fmt.Errorf("vertex %d at %v is not finite", i+1, p)
		}
	}
	for t, tri := range m.Tris {
		for _, i := range tri {
			if i < 0 || i >= len(verts) {
				return fmt.Errorf("triangle %d names vertex %d of %d", t+1, i+1, len(verts))
			}
		}
	}
	return nil
}

// skeleton draws bones as lines from parent to child heads and joints as
// white discs, the root larger and red, all with dark outlines so they
// read on any joint colour. Heads are the posed global transforms'
// translations.
func skeleton(cv *canvas, cam camera, s *rig.Skeleton, pose []linalg.Affine) {
	px := float64(cv.w) / 800 // one picture pixel at 800 wide, in canvas pixels
	head := make([][3]float64, s.Len())
	ok := make([]bool, s.Len())
	for j := range s.Joints {
		ok[j] = pose[j].T.IsFinite()
		x, y, z := cam.project(pose[j].T)
		head[j] = [3]float64{x, y, z}
	}
	dark := [3]float64{0.12, 0.12, 0.14}
	white := [3]float64{0.97, 0.97, 0.97}
	for j, jt := range s.Joints {
		if jt.Parent == rig.NoParent || !ok[j] || !ok[jt.Parent] {
			continue
		}
		a, b := head[jt.Parent], head[j]
		cv.line(a[0], a[1], a[2], b[0], b[1], b[2], 2.4*px, dark)
		cv.line(a[0], a[1], a[2], b[0], b[1], b[2], 1.1*px, white)
	}
	// Roots last, so a joint at the root's place does not hide its mark.
	for _, root := range []bool{false, true} {
		for j, jt := range s.Joints {
			if !ok[j] || (jt.Parent == rig.NoParent) != root {
				continue
			}
			p := head[j]
			if root {
				cv.disc(p[0], p[1], p[2], 8*px, 1.5*px, [3]float64{0.86, 0.12, 0.12}, dark)
			} else {
				cv.disc(p[0], p[1], p[2], 5.5*px, 1.3*px, white, dark)
			}
		}
	}
}
