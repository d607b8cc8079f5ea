// Package safefile writes output files so that a failure never leaves a
// half-written file and an input is never overwritten: data goes to a
// temporary file in the destination's folder, which is renamed over the
// destination only when writing succeeded. Plan does the same for every
// output of one command at once, checked before the command starts work.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrIsInput reports an output path that names one of the inputs.
var ErrIsInput = errors.New("output would overwrite an input")

// Write creates path through a temporary file filled by fill. When any
// of inputs names the same file as path (after following links), it
// returns ErrIsInput and writes nothing. On any error the destination is
// left as it was.
func Write(path string, fill func(w io.Writer) error, inputs ...string) error {
	for _, in := range inputs {
		if same(in, path) {
			return fmt.Errorf("%s: %w %s", path, ErrIsInput, in)
		}
	}
	tmp, err := stage(path, fill)
	if err != nil {
		return err
	}
	defer forget(tmp)
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// stage writes fill's output to a new temporary file beside path and
// returns its name; on error nothing is left behind and the error names
// path, not the temporary file.
func stage(path string, fill func(w io.Writer) error) (tmp string, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	remember(f.Name())
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			forget(f.Name())
			err = naming(err, f.Name(), path)
		}
	}()
	if err = fill(f); err != nil {
		return "", err
	}
	if err = f.Sync(); err != nil {
		return "", err
	}
	if err = f.Close(); err != nil {
		return "", err
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// naming makes err name path instead of the temporary file tmp, and
// puts path in front unless err already names it.
func naming(err error, tmp, path string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == tmp {
		pe.Path = path
	}
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// unwrapPath drops the operation and file name of a *fs.PathError (or a
// rename's *os.LinkError), which would name the temporary file; callers
// put the destination's name in front instead.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// live holds the temporary files being written, for RemoveTemps.
var live sync.Map

func remember(name string) { live.Store(name, true) }
func forget(name string)   { live.Delete(name) }

// RemoveTemps removes every temporary file still being written: for a
// process that must exit at once (a second Ctrl-C) without leaving any.
func RemoveTemps() {
	live.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		live.Delete(k)
		return true
	})
}
