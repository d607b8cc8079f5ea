package gltf

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// localURI reports whether a buffer uri names a file inside the folder.
func localURI(uri string) bool {
	u, err := url.PathUnescape(strings.ReplaceAll(uri, "\\", "/"))
	if err != nil || strings.Contains(u, ":") {
		return false
	}
	return fs.ValidPath(strings.TrimPrefix(u, "./"))
}

// guardFS resolves side files relative to the glTF file's folder, refuses
// any name that would leave it and anything but a regular file of at most
// maxFile bytes, and records the names it opened.
type guardFS struct {
	fsys   fs.FS
	dir    string
	opened []string
}

func (g *guardFS) Open(name string) (fs.File, error) {
	if !localURI(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: format.ErrOutsideFolder}
	}
	clean := strings.TrimPrefix(name, "./")
	if g.dir != "." && g.dir != "" {
		clean = g.dir + "/" + clean
	}
	f, err := openRegular(g.fsys, clean)
	if err != nil {
		return nil, err
	}
	g.opened = append(g.opened, clean)
	return f, nil
}

// errTooLarge reports a file past maxFile.
var errTooLarge = errors.New("larger than meshrig reads")

// openRegular opens a regular file of at most maxFile bytes. It looks
// first when fsys can look without opening, as an fs.FS cannot open
// without waiting: a named pipe would block the open itself.
// (format.ReadScene's file system also opens without waiting, so there
// the check cannot be raced.)
func openRegular(fsys fs.FS, name string) (fs.File, error) {
	if sfs, ok := fsys.(fs.StatFS); ok {
		st, err := sfs.Stat(name)
		if err != nil {
			return nil, err
		}
		if err := regularSize(name, st); err != nil {
			return nil, err
		}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = regularSize(name, st)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// regularSize refuses what is not a regular file, or is one past maxFile
// (a buffer is read whole, and its size decides the allocation).
func regularSize(name string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return format.NotRegular(name, st.Mode())
	}
	if st.Size() > maxFile {
		return fmt.Errorf("%s: %d bytes, %w (%d)", name, st.Size(), errTooLarge, maxFile)
	}
	return nil
}
