package viewer

import (
	"bytes"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"time"
)

// pageCSP keeps the page to its own files: the bundle, its styles, and
// the API; blob: and data: for what three.js's GLTFLoader makes of the GLB.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; connect-src 'self' blob: data:; object-src 'none'; " +
	"base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

// static serves one file of the page's folder.
func (s *Server) static(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { s.serveFile(w, r, name) }
}

// staticFile serves a file at the top of the page's folder: nothing below
// it, no listing, nothing hidden.
func (s *Server) staticFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name == "" || name[0] == '.' || !fs.ValidPath(name) || path.Ext(name) == "" {
		fail(w, http.StatusNotFound, "no file %s", r.URL.Path)
		return
	}
	s.serveFile(w, r, name)
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	if s.opt.Web == nil {
		fail(w, http.StatusNotFound, "this server holds no page (the API is under /api/)")
		return
	}
	b, err := fs.ReadFile(s.opt.Web, name)
	if err != nil {
		fail(w, http.StatusNotFound, "no file /%s", name)
		return
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("Content-Security-Policy", pageCSP)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}
