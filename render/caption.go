package render

import (
	"fmt"
	"image"
	"image/color"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/meshrig/meshrig/rig"
)

// rigCaption describes what Rig draws: the clip and frame (1-based, as
// people count them) and the size of the skeleton.
func rigCaption(r *rig.Rig, c, f int) string {
	bones := r.Skeleton.Len() - 1
	if c < 0 || c >= len(r.Clips) {
		return fmt.Sprintf("rest pose  |  %d joints, %d bones  |  %d vertices", r.Skeleton.Len(), bones, len(r.Mesh.Verts))
	}
	name := r.Clips[c].Name
	if name == "" {
		name = fmt.Sprintf("clip %d", c+1)
	}
	return fmt.Sprintf("%s  |  frame %d/%d  |  %d joints, %d bones", name, f+1, r.Clips[c].Frames, r.Skeleton.Len(), bones)
}

// caption writes text in the top-left corner with the basic 7×13 bitmap
// font (no font files, no cgo).
func caption(img *image.RGBA, text string) {
	if text == "" {
		return
	}
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{40, 40, 48, 255}), Face: basicfont.Face7x13,
		Dot: fixed.P(10, 20)}
	d.DrawString(text)
}
