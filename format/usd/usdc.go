package usd

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
)

// WriteUSDC writes r as a binary crate layer (.usdc) holding what Write's
// .usda holds: that layer, parsed back and encoded.
func WriteUSDC(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	return writeCrate(w, r, func(k int) string { return r.Mesh.Surface.Images[k].Path })
}

// writeCrate writes the crate of the layer writeLayer makes with asset.
func writeCrate(w io.Writer, r *rig.Rig, asset func(k int) string) error {
	var text bytes.Buffer
	if err := writeLayer(&text, r, asset); err != nil {
		return err
	}
	ly, err := parseLayer(text.String())
	if err != nil {
		return fmt.Errorf("usdc: the layer written does not parse: %w", err)
	}
	return encodeCrate(w, ly)
}

// ReadUSDC reads a rig from a crate layer laid out as WriteUSDC writes it
// (see Read): a decoder for the crate features the writer uses (LZ4
// blocks, integer coding, uncompressed arrays, the value types of the
// layout), not a general one. Errors name the byte offset at fault
// (format.ParseError) where the file's structure is wrong, and the prim
// or property where the layout is.
func ReadUSDC(r io.Reader) (*rig.Rig, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxLayer+1))
	if err != nil {
		return nil, err
	}
	if len(src) > maxLayer {
		return nil, fmt.Errorf("usdc: file larger than %d bytes", maxLayer)
	}
	ly, err := decodeCrate(src)
	var out *rig.Rig
	if err == nil {
		if out, err = build(ly); err == nil {
			return out, nil
		}
	}
	var ce *crateErr
	if errors.As(err, &ce) {
		return nil, &format.ParseError{Offset: ce.off, Err: errors.New("usdc: " + ce.msg)}
	}
	var at *errAt
	if errors.As(err, &at) {
		return nil, fmt.Errorf("usdc: %s", at.msg)
	}
	return nil, fmt.Errorf("usdc: %w", err)
}
