package usd

import (
	"bytes"
	"fmt"
	"io"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
)

// WriteUSDC writes r as a binary crate layer (.usdc) holding what Write's
// .usda holds, except customData (the original names of clips, parts and
// materials, and the clips' rates, which the time codes carry anyway).
func WriteUSDC(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	var text bytes.Buffer
	if err := writeLayer(&text, r, func(k int) string { return r.Mesh.Surface.Images[k].Path }); err != nil {
		return err
	}
	ly, err := parseLayer(text.String())
	if err != nil {
		return fmt.Errorf("usdc: the layer written does not parse: %w", err)
	}
	return encodeCrate(w, ly)
}
