package format

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
)

// ErrNotRegular reports an input that is not a regular file: a folder, a
// named pipe, a device or a socket. Reading a pipe with no writer blocks
// forever and a device may never end, so meshrig reads regular files only.
var ErrNotRegular = errors.New("not a regular file")

// NotRegular returns the error for a file of mode m that is not regular,
// naming it and what it is: "x.bin: not a regular file (a named pipe)".
func NotRegular(name string, m fs.FileMode) error {
	return fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, fileKind(m))
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "a special file"
	}
}

// openRegular opens a regular file for reading. It opens without waiting
// (openNoWait) and checks the open descriptor, so a named pipe is refused
// rather than waited on and nothing can swap the file between the check
// and the read; a Stat before Open would race and would not stop the
// open itself from blocking.
func openRegular(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|openNoWait, 0)
	if err != nil {
		return nil, err
	}
	return checkRegular(f, name)
}

// checkRegular closes f unless it is a regular file, and otherwise makes
// its reads blocking again (see openNoWait).
func checkRegular(f *os.File, name string) (*os.File, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, NotRegular(name, st.Mode())
	}
	if err := clearNoWait(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// rootFS is an fs.FS over an os.Root that opens regular files only, in
// the manner of openRegular, so a scene's side files cannot block either.
type rootFS struct{ root *os.Root }

func (r rootFS) Open(name string) (fs.File, error) {
	return r.open(name, name)
}

// open opens name, naming it label in errors.
func (r rootFS) open(name, label string) (*os.File, error) {
	if !validRootPath(name) {
		return nil, &fs.PathError{Op: "open", Path: label, Err: fs.ErrInvalid}
	}
	f, err := r.root.OpenFile(name, os.O_RDONLY|openNoWait, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = label
		}
		return nil, err
	}
	return checkRegular(f, label)
}

// Stat lets fs.Stat look without opening.
func (r rootFS) Stat(name string) (fs.FileInfo, error) {
	if !validRootPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return r.root.Stat(name)
}

// validRootPath is fs.ValidPath, and on Windows without backslashes, as
// os.Root's own FS asks.
func validRootPath(name string) bool {
	return fs.ValidPath(name) && (runtime.GOOS != "windows" || !strings.Contains(name, `\`))
}
