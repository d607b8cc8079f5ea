package viewer

import (
	"net/http"
	"testing"

	"github.com/meshrig/meshrig/character"
)

// benchServer serves a generated quadruped (about 4000 vertices, 60
// frames) with its animation.
func benchServer(b *testing.B) *tserver {
	r, err := character.Generate(character.Quadruped, character.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return newServer(b, Options{Rig: r, Input: character.Sequence(r)})
}

// BenchmarkErrorFrame is one GET /api/error: a frame posed, compared and
// encoded (the page asks for it on every frame change in error mode).
func BenchmarkErrorFrame(b *testing.B) {
	ts := benchServer(b)
	for b.Loop() {
		if w := ts.req("GET", "/api/error?clip=0&frame=30", ""); w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkEditUndo is an edit (rig/edit, then metric.Compare over every
// frame for the report) and its undo.
func BenchmarkEditUndo(b *testing.B) {
	ts := benchServer(b)
	for b.Loop() {
		ts.ok("POST", "/api/edit", `{"kind":"move","joint":3,"head":[0.1,1.2,0.3]}`, http.StatusOK)
		ts.ok("POST", "/api/undo", "", http.StatusOK)
	}
}

// BenchmarkGLB encodes the current rig as GLB (a new version each time,
// so nothing is cached).
func BenchmarkGLB(b *testing.B) {
	ts := benchServer(b)
	st := ts.hist.current()
	for b.Loop() {
		ts.Server.glb.st = nil
		if _, err := ts.Server.glb.get(st); err != nil {
			b.Fatal(err)
		}
	}
}
