package gltf

import (
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

// guardFS resolves side files relative to the glTF file's folder and
// refuses any name that would leave it.
type guardFS struct {
	fsys fs.FS
	dir  string
}

func (g guardFS) Open(name string) (fs.File, error) {
	if !localURI(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: format.ErrOutsideFolder}
	}
	clean := strings.TrimPrefix(name, "./")
	if g.dir != "." && g.dir != "" {
		clean = g.dir + "/" + clean
	}
	return g.fsys.Open(clean)
}
