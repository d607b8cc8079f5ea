// Package viewer is the local HTTP server behind `meshrig view`: it holds
// one rig (and optionally the animation it was made from), serves the page
// of viewer/web and the JSON and binary endpoints that page uses
// (/work/notes/viewer-api.md is the contract), applies skeleton edits with
// undo and redo, re-solves the rig in the background, measures it against
// its input (metric.Compare) and saves it through the atomic writer.
//
// Security: it binds 127.0.0.1 unless told otherwise, every /api/ call
// must carry the per-run random token, the Host header must name the bound
// address (no DNS rebinding), request bodies are limited to 1 MiB, and a
// bad request gets a 4xx with a one-line message and never changes the rig.
//
//	srv, err := viewer.New(viewer.Options{Rig: r, Input: s, Web: web.FS})
//	if err != nil { ... }
//	fmt.Println(srv.URL())
//	err = srv.Serve(ctx) // until ctx is done
package viewer
