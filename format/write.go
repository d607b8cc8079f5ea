package format

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/rig"
)

// RigWriter encodes a rig in one format.
type RigWriter func(w io.Writer, r *rig.Rig, opt WriteOptions) error

// WriterFor returns the writer of the format path's extension names, so a
// command can refuse an output it cannot write before doing any work.
// The returned writer validates the rig first, and sets opt.JSON for a
// .gltf path.
func WriterFor(path string) (RigWriter, error) {
	f, gz, err := ByPath(path)
	if err != nil {
		return nil, err
	}
	if gz {
		return nil, fmt.Errorf("%s: %w: meshrig does not write compressed files (drop the .gz)", path, ErrUnsupported)
	}
	if f.Write == nil {
		return nil, fmt.Errorf("%s: %w: meshrig does not write %s files (it writes %s)", path, ErrUnsupported, f.Name, writableExts())
	}
	text := strings.EqualFold(filepath.Ext(path), ".gltf")
	return func(w io.Writer, r *rig.Rig, opt WriteOptions) error {
		if err := r.Validate(); err != nil {
			return fmt.Errorf("invalid rig: %w", err)
		}
		opt.JSON = opt.JSON || text
		return f.Write(w, r, opt)
	}, nil
}

// WriteFile writes r to path in the format its extension names, through a
// temporary file renamed into place on success. It refuses a path that is
// one of inputs, and validates the rig first.
func WriteFile(path string, r *rig.Rig, opt WriteOptions, inputs ...string) error {
	write, err := WriterFor(path)
	if err != nil {
		return err
	}
	return safefile.Write(path, func(w io.Writer) error { return write(w, r, opt) }, inputs...)
}

// writableExts lists the extensions meshrig writes rigs to.
func writableExts() string {
	s := ""
	for _, f := range Formats() {
		if f.Write == nil {
			continue
		}
		for _, e := range f.Exts {
			if s != "" {
				s += ", "
			}
			s += e
		}
	}
	return s
}
