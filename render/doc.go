// Package render draws rigs and meshes to images in pure Go (no cgo, no
// GPU): a z-buffered software rasterizer, 2× supersampled and box-filtered
// for anti-aliasing, run over horizontal bands in parallel with the same
// bytes at any GOMAXPROCS.
//
// Rig paints the mesh with its own materials when its mesh.Surface has
// them (base colour factor × base colour texture at the UVs, nearest
// texel, PNG or JPEG × vertex colours, as glTF defines it), and otherwise
// — or with Options.Paint PaintJoints — colours each region by its
// dominant joint (JointColor: golden-ratio hue steps) with crisp borders;
// it shades the surface with a key light beside the camera plus ambient
// (both sides of a face lit), and draws the posed skeleton over it as an X-ray overlay: bones as outlined lines from
// parent head to child head, joints as white discs, the root a larger red
// one, slightly faded where the surface hides them. A caption names the
// clip, frame and bone count. Mesh draws a plain mesh, in its materials,
// in clay or with given vertex colours.
//
//	img, err := render.Rig(r, 0, 10, render.Options{})
//	err = render.WritePNG("rig.png", img, input)
//
// The automatic camera (AutoView; override with Options.View) frames the
// rest pose's bounding box orthographically from a 3/4 view, so every
// frame of one rig is drawn from the same place.
package render
