// Package safefile writes output files so that a failure never leaves a
// half-written file and an input is never overwritten: data goes to a
// temporary file in the destination's folder, which is renamed over the
// destination only when writing succeeded.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrIsInput reports an output path that names one of the inputs.
var ErrIsInput = errors.New("output would overwrite an input")

// Write creates path through a temporary file filled by fill. When any
// of inputs names the same file as path (after following links), it
// returns ErrIsInput and writes nothing. On any error the destination is
// left as it was.
func Write(path string, fill func(w io.Writer) error, inputs ...string) (err error) {
	if out, e := os.Stat(path); e == nil {
		for _, in := range inputs {
			if st, e := os.Stat(in); e == nil && os.SameFile(st, out) {
				return fmt.Errorf("%s: %w", path, ErrIsInput)
			}
		}
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
