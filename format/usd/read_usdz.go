package usd

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/meshrig/meshrig/rig"
)

// ReadUSDZ reads a rig from a USDZ package whose first file is a .usdc
// or .usda layer laid out as WriteUSDZ and Write lay it out (see Read,
// ReadUSDC); the images its materials reference inside the package come
// with their bytes (Image.Data), their Path the name in the package.
func ReadUSDZ(r io.ReaderAt, size int64) (*rig.Rig, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("usdz: %w", err)
	}
	if len(z.File) == 0 {
		return nil, fmt.Errorf("usdz: empty package")
	}
	first := z.File[0]
	read := Read
	switch ext := strings.ToLower(path.Ext(first.Name)); ext {
	case ".usda":
	case ".usdc":
		read = ReadUSDC
	default:
		return nil, fmt.Errorf("usdz: the root layer %q is not a .usda or .usdc layer", first.Name)
	}
	data, err := readEntry(first)
	if err != nil {
		return nil, err
	}
	out, err := read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("usdz %s: %w", first.Name, err)
	}
	if s := out.Mesh.Surface; s != nil {
		for k := range s.Images {
			im := &s.Images[k]
			for _, f := range z.File[1:] {
				if f.Name == im.Path {
					if im.Data, err = readEntry(f); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return out, nil
}

// readEntry reads one file of the package, at most its declared size.
func readEntry(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > maxLayer {
		return nil, fmt.Errorf("usdz: %s is larger than %d bytes", f.Name, maxLayer)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("usdz: %s: %w", f.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	if err != nil {
		return nil, fmt.Errorf("usdz: %s: %w", f.Name, err)
	}
	return b, nil
}
