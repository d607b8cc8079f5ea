// Package web holds the page of meshrig view: index.html, app.css and the
// three.js bundle dist/app.js, embedded so the command serves them offline
// with no Node. The sources are src/*.js; the bundle is committed and
// rebuilt with go generate (npm ci, then esbuild through build.mjs), and
// TestBundleUpToDate fails when it differs from what the sources make.
//
// The page speaks the HTTP contract of package viewer (GET /api/state,
// /api/rig.glb, … with the per-run token from its URL).
package web

import (
	"embed"
	"io/fs"
)

//go:generate npm ci --no-audit --no-fund
//go:generate node build.mjs

//go:embed index.html app.css dist/app.js
var embedded embed.FS

// FS holds the page as the server serves it: index.html, app.js and
// app.css at its top (app.js is dist/app.js). Any other name does not
// exist.
var FS fs.FS = page{}

// served maps the names the page is served under to embedded files.
var served = map[string]string{
	"index.html": "index.html",
	"app.css":    "app.css",
	"app.js":     "dist/app.js",
}

type page struct{}

// Open opens one of the page's files by its served name.
func (page) Open(name string) (fs.File, error) {
	file, ok := served[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return embedded.Open(file)
}
