package format

import (
	"fmt"
	"io"

	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/rig"
)

// WriteFile writes r to path in the format its extension names, through a
// temporary file renamed into place on success. It refuses a path that is
// one of inputs, and validates the rig first.
func WriteFile(path string, r *rig.Rig, opt WriteOptions, inputs ...string) error {
	f, gz, err := ByPath(path)
	if err != nil {
		return err
	}
	if f.Write == nil || gz {
		return fmt.Errorf("%s: %w: meshrig does not write %s files", path, ErrUnsupported, f.Name)
	}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("%s: invalid rig: %w", path, err)
	}
	return safefile.Write(path, func(w io.Writer) error { return f.Write(w, r, opt) }, inputs...)
}
