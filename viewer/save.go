package viewer

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/collada" // Save writes .dae
	"github.com/meshrig/meshrig/internal/safefile"
)

// saveBody is POST /api/save's JSON.
type saveBody struct {
	Path    string `json:"path"`
	Collada string `json:"collada"`
}

// savePath checks where a save may go: a .glb, .gltf or .dae file in the
// save folder or below it (a relative path is taken from it), whose folder
// exists. It returns the absolute path.
func (s *Server) savePath(b saveBody) (string, format.WriteOptions, error) {
	var opt format.WriteOptions
	if b.Path == "" {
		return "", opt, errors.New(`missing "path" (a .glb, .gltf or .dae file name)`)
	}
	if strings.ContainsRune(b.Path, 0) {
		return "", opt, errors.New(`"path" holds a NUL byte`)
	}
	ext := strings.ToLower(filepath.Ext(b.Path))
	switch ext {
	case ".glb", ".gltf", ".dae":
	default:
		return "", opt, fmt.Errorf("%q: save as .glb, .gltf or .dae", b.Path)
	}
	switch b.Collada {
	case "":
	case "1.4.1", "1.5":
		if ext != ".dae" {
			return "", opt, fmt.Errorf(`"collada" %s applies to a .dae file, not %s`, b.Collada, ext)
		}
		opt.Version = b.Collada
	default:
		return "", opt, fmt.Errorf(`"collada" %q: want 1.4.1 or 1.5`, b.Collada)
	}
	p := b.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.saveDir, p)
	}
	p = filepath.Clean(p)
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", opt, fmt.Errorf("%s: no such folder", filepath.Dir(b.Path))
	}
	if !within(dir, s.saveDir) {
		return "", opt, fmt.Errorf("%s is outside the save folder %s", b.Path, s.saveDir)
	}
	p = filepath.Join(dir, filepath.Base(p))
	if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
		return "", opt, fmt.Errorf("%s exists and is not a regular file", b.Path)
	}
	return p, opt, nil
}

// within reports whether path is dir or below it; both are clean and
// absolute.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (s *Server) postSave(w http.ResponseWriter, r *http.Request) {
	var b saveBody
	if !decode(w, r, &b) {
		return
	}
	path, opt, err := s.savePath(b)
	if err != nil {
		fail(w, http.StatusBadRequest, "save: %v", err)
		return
	}
	s.mu.Lock()
	st := s.hist.current()
	s.mu.Unlock()
	if err := format.WriteFile(path, st.rig, opt, s.opt.Inputs...); err != nil {
		if errors.Is(err, safefile.ErrIsInput) {
			fail(w, http.StatusBadRequest, "save: %s was read as an input: it is never written over", b.Path)
			return
		}
		fail(w, http.StatusBadRequest, "save: %v", err)
		return
	}
	s.mu.Lock()
	if s.hist.current() == st {
		s.hist.markSaved()
	}
	s.mu.Unlock()
	s.logf("saved %s", path)
	writeJSON(w, http.StatusOK, map[string]string{"path": path})
}
