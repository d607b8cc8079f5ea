// Package render draws rigs and meshes to images in pure Go (no GPU): a
// z-buffered, supersampled software rasterizer with Lambert shading, each
// vertex coloured by its dominant joint, and the skeleton drawn on top as
// an X-ray overlay (joints as discs, bones as lines, the root marked).
//
//	img, err := render.Rig(r, 0, 10, render.Options{})
//	err = render.WritePNG("rig.png", img)
//
// The automatic camera frames the rest pose's bounding box, so every frame
// of one rig is drawn from the same place.
package render
