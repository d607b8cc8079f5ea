package render

import (
	"image"
	"image/png"
	"io"

	"github.com/meshrig/meshrig/internal/safefile"
)

// Encode writes img as PNG.
func Encode(w io.Writer, img image.Image) error { return png.Encode(w, img) }

// WritePNG writes img to path through a temporary file; it refuses to
// overwrite any of inputs.
func WritePNG(path string, img image.Image, inputs ...string) error {
	return safefile.Write(path, func(w io.Writer) error { return png.Encode(w, img) }, inputs...)
}
