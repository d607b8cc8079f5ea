package viewer

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// FuzzEdit sends arbitrary bodies to POST /api/edit: the server never
// panics or answers 5xx, a refused edit leaves the rig byte for byte as
// it was, an accepted one gives a valid State that undo takes back.
func FuzzEdit(f *testing.F) {
	for _, seed := range []string{
		`{"kind":"move","joint":2,"head":[0.1,0.2,0.3]}`,
		`{"kind":"split","joint":3,"t":0.25}`,
		`{"kind":"add","parent":4,"head":[0,1,0]}`,
		`{"kind":"remove","joint":5}`,
		`{"kind":"remove","joint":0}`,
		`{"kind":"reparent","joint":6,"parent":2}`,
		`{"kind":"reparent","joint":1,"parent":7}`,
		`{"kind":"root","joint":11}`,
		`{"kind":"rename","joint":1,"name":"tail"}`,
		`{"kind":"rename","joint":1,"name":"segc"}`,
		`{"kind":"move","joint":1,"head":[1e308,1e308,0]}`,
		`{"kind":"split","joint":0,"t":0.5}`,
		`{"kind":"remove","joint":1,"t":null}`,
		`{"kind":"move","joint":1,"head":[1,2]}`,
		`{"kind":"remove","joint":1} x`,
		`[]`, `null`, ``, `{`,
	} {
		f.Add([]byte(seed))
	}
	r, in := snake(f)
	ts := newServer(f, Options{Rig: r, Input: in})
	before := ts.glb()
	f.Fuzz(func(t *testing.T, body []byte) {
		ts.t = t
		w := ts.req("POST", "/api/edit", string(body))
		switch {
		case w.Code == http.StatusOK:
			var st State
			if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil || st.Version < 2 || !st.CanUndo {
				t.Fatalf("accepted %q: answer %.200q", body, w.Body.String())
			}
			if back := readGLB(t, ts.glb()); back.Skeleton.Len() != len(st.Joints) {
				t.Fatalf("accepted %q: GLB has %d joints, state %d", body, back.Skeleton.Len(), len(st.Joints))
			}
			ts.ok("POST", "/api/undo", "", http.StatusOK)
		case w.Code >= 400 && w.Code < 500:
			var e apiError
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" || bytes.ContainsRune([]byte(e.Error), '\n') {
				t.Fatalf("refused %q with %.200q", body, w.Body.String())
			}
		default:
			t.Fatalf("%q: status %d %.200q", body, w.Code, w.Body.String())
		}
		if !bytes.Equal(ts.glb(), before) {
			t.Fatalf("%q changed the rig for good", body)
		}
	})
}
