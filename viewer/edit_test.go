package viewer

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// biped returns a generated biped (pelvis root with spine and two hips)
// and its animation.
func biped(t testing.TB) (*rig.Rig, *seq.Sequence) {
	t.Helper()
	r, err := character.Generate(character.Biped, character.Options{Frames: 4, Vertices: 800})
	if err != nil {
		t.Fatal(err)
	}
	return r, character.Sequence(r)
}

func (ts *tserver) post(path, body string) State {
	ts.t.Helper()
	var st State
	if err := json.Unmarshal(ts.ok("POST", path, body, 200), &st); err != nil {
		ts.t.Fatal(err)
	}
	return st
}

func TestEdits(t *testing.T) {
	r, in := biped(t)
	n := r.Skeleton.Len()
	for _, c := range []struct {
		name, body string
		joints     int
		check      func(t *testing.T, st State)
	}{
		{"move", `{"kind":"move","joint":6,"head":[0.5,1.25,-0.125]}`, n, func(t *testing.T, st State) {
			if st.Joints[6].Head != [3]float64{0.5, 1.25, -0.125} {
				t.Errorf("elbow at %v", st.Joints[6].Head)
			}
		}},
		{"split", `{"kind":"split","joint":6,"t":0.5}`, n + 1, func(t *testing.T, st State) {
			if len(st.Map) != n+1 {
				t.Fatalf("map %v: want %d entries (the new joint's id last)", st.Map, n+1)
			}
			nj := st.Map[n]
			if st.Joints[st.Map[6]].Parent != int(nj) || st.Joints[nj].Parent != int(st.Map[5]) {
				t.Errorf("split: new joint %d not between shoulder and elbow: %+v", nj, st.Joints)
			}
		}},
		{"add", `{"kind":"add","parent":4,"head":[0,2,0]}`, n + 1, func(t *testing.T, st State) {
			if nj := st.Map[n]; st.Joints[nj].Parent != int(st.Map[4]) || st.Joints[nj].Head != [3]float64{0, 2, 0} {
				t.Errorf("added joint %+v", st.Joints[nj])
			}
		}},
		{"remove", `{"kind":"remove","joint":6}`, n - 1, func(t *testing.T, st State) {
			if st.Map[6] != -1 || st.Joints[st.Map[7]].Parent != int(st.Map[5]) {
				t.Errorf("remove elbow: map %v, wrist's parent %d", st.Map, st.Joints[st.Map[7]].Parent)
			}
		}},
		{"reparent", `{"kind":"reparent","joint":11,"parent":3}`, n, func(t *testing.T, st State) {
			if st.Joints[st.Map[11]].Parent != int(st.Map[3]) {
				t.Errorf("shoulder_r's parent %d", st.Joints[st.Map[11]].Parent)
			}
		}},
		{"root", `{"kind":"root","joint":2}`, n, func(t *testing.T, st State) {
			if st.Joints[0].Name != "chest" || st.Map[2] != 0 {
				t.Errorf("root %q, map %v", st.Joints[0].Name, st.Map)
			}
		}},
		{"rename", `{"kind":"rename","joint":4,"name":"skull"}`, n, func(t *testing.T, st State) {
			if st.Joints[4].Name != "skull" {
				t.Errorf("name %q", st.Joints[4].Name)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts := newServer(t, Options{Rig: r, Input: in})
			before := ts.glb()
			st := ts.post("/api/edit", c.body)
			if len(st.Joints) != c.joints || st.Version != 2 || !st.Dirty || !st.CanUndo || st.CanRedo {
				t.Fatalf("after %s: %d joints (want %d), version %d, dirty %v, undo %v, redo %v",
					c.name, len(st.Joints), c.joints, st.Version, st.Dirty, st.CanUndo, st.CanRedo)
			}
			if st.Report.RMSE == nil || len(st.Report.PerFrame[0]) != 4 {
				t.Errorf("report %+v", st.Report)
			}
			c.check(t, st)
			edited := ts.glb()
			if bytes.Equal(before, edited) {
				t.Fatal("the edit left the GLB as it was")
			}
			if back := readGLB(t, edited); back.Skeleton.Len() != c.joints {
				t.Errorf("edited GLB has %d joints", back.Skeleton.Len())
			}
			u := ts.post("/api/undo", "")
			if !bytes.Equal(ts.glb(), before) {
				t.Error("undo did not restore the rig byte for byte")
			}
			if u.Version != 3 || u.CanUndo || !u.CanRedo || u.Dirty || len(u.Joints) != n {
				t.Errorf("after undo: %+v", u)
			}
			if u.Map != nil && len(u.Map) != c.joints {
				t.Errorf("undo map %v: want one entry per joint undone", u.Map)
			}
			ts.post("/api/redo", "")
			if !bytes.Equal(ts.glb(), edited) {
				t.Error("redo did not restore the edited rig byte for byte")
			}
			if ts.Unsaved() != 1 {
				t.Errorf("Unsaved %d after edit, undo, redo", ts.Unsaved())
			}
		})
	}
}

func TestBadEditsLeaveRig(t *testing.T) {
	r, in := biped(t)
	ts := newServer(t, Options{Rig: r, Input: in})
	before := ts.glb()
	for _, c := range []struct{ body, says string }{
		{`{"kind":"remove","joint":0}`, "root"},               // the pelvis has three children
		{`{"kind":"reparent","joint":1,"parent":4}`, "cycle"}, // under its own head
		{`{"kind":"reparent","joint":5,"parent":5}`, "cycle"},
		{`{"kind":"reparent","joint":0,"parent":1}`, "root"},
		{`{"kind":"explode","joint":1}`, "unknown edit kind"},
		{`{"joint":1}`, "kind"},
		{`{"kind":"remove"}`, `needs "joint"`},
		{`{"kind":"move","joint":1}`, `needs "head"`},
		{`{"kind":"remove","joint":1,"t":0.5}`, `takes no "t"`},
		{`{"kind":"remove","joint":17}`, "no such joint"},
		{`{"kind":"remove","joint":-1}`, "no such joint"},
		{`{"kind":"remove","joint":1.5}`, "malformed"},
		{`{"kind":"split","joint":1,"t":0}`, "between 0 and 1"},
		{`{"kind":"split","joint":1,"t":1}`, "between 0 and 1"},
		{`{"kind":"move","joint":1,"head":[1,2]}`, "want [x, y, z]"},
		{`{"kind":"move","joint":1,"head":[1,2,3,4]}`, "want [x, y, z]"},
		{`{"kind":"move","joint":1,"head":null}`, `needs "head"`},
		{`{"kind":"move","joint":1,"head":[1e300,0,0]}`, "far outside"},
		{`{"kind":"add","parent":1,"head":["a",0,0]}`, "malformed"},
		{`{"kind":"rename","joint":1,"name":"head"}`, "already named"},
		{`{"kind":"rename","joint":1,"name":"  "}`, "empty"},
		{`{"kind":"rename","joint":1,"name":"a\nb"}`, "control"},
		{`{"kind":"remove","joint":1,"color":"red"}`, "unknown field"},
		{`{"kind":"remove","joint":1}{}`, "after the JSON"},
		{`{"kind":"remove",`, "malformed"},
		{`[]`, "malformed"},
		{``, "empty"},
	} {
		t.Run(c.body, func(t *testing.T) {
			wantError(t, ts.req("POST", "/api/edit", c.body), 400, c.says)
		})
	}
	wantError(t, ts.req("POST", "/api/undo", ""), 400, "nothing to undo")
	wantError(t, ts.req("POST", "/api/redo", ""), 400, "nothing to redo")
	wantError(t, ts.req("POST", "/api/undo", `{"steps":2}`), 400, "unknown field")
	st := ts.state()
	if !bytes.Equal(before, ts.glb()) || st.Version != 1 || st.Dirty || st.CanUndo {
		t.Errorf("bad requests changed the rig: version %d, dirty %v", st.Version, st.Dirty)
	}
}

func TestHistory(t *testing.T) {
	r, in := biped(t)
	dir := t.TempDir()
	ts := newServer(t, Options{Rig: r, Input: in, SaveDir: dir})
	v0 := ts.glb()
	ts.post("/api/edit", `{"kind":"rename","joint":4,"name":"skull"}`)
	v1 := ts.glb()
	ts.post("/api/edit", `{"kind":"remove","joint":6}`)
	if ts.Unsaved() != 2 {
		t.Errorf("Unsaved %d after two edits", ts.Unsaved())
	}
	ts.post("/api/undo", "")
	// A new edit drops the redo branch.
	st := ts.post("/api/edit", `{"kind":"move","joint":4,"head":[0,2,0]}`)
	if st.CanRedo {
		t.Error("redo still offered after a new edit")
	}
	ts.ok("POST", "/api/save", `{"path":"saved.glb"}`, 200)
	if st := ts.state(); st.Dirty || ts.Unsaved() != 0 {
		t.Errorf("dirty %v, unsaved %d after save", st.Dirty, ts.Unsaved())
	}
	if u := ts.post("/api/undo", ""); !u.Dirty || !bytes.Equal(ts.glb(), v1) {
		t.Error("undo past the save: not dirty, or not the renamed rig")
	}
	ts.post("/api/undo", "")
	if !bytes.Equal(ts.glb(), v0) {
		t.Error("two undos did not restore the loaded rig")
	}
	if ts.Unsaved() != 2 {
		t.Errorf("Unsaved %d two undos away from the save", ts.Unsaved())
	}
	// A new edit here drops the saved rig from the history: every change
	// since the save counts.
	ts.post("/api/edit", `{"kind":"rename","joint":1,"name":"torso"}`)
	if ts.Unsaved() != 3 {
		t.Errorf("Unsaved %d after undo, undo, edit past the save", ts.Unsaved())
	}
}

// TestEditScaledRig: a rig with scale tracks (rig --stretch) is edited in
// the viewer; a change of skeleton keeps scale tracks (of one) and says,
// in the log, that the re-solve fits them again; a rename, or a reparent
// to the joint's own parent, says nothing (the scales are kept).
func TestEditScaledRig(t *testing.T) {
	r := testrig.SquashTube(t, 12, linalg.Vec3{}, testrig.AlongBone)
	ts := newServer(t, Options{Rig: r, Input: testrig.Play(t, r)})
	ts.post("/api/edit", `{"kind":"rename","joint":1,"name":"knee"}`)
	ts.post("/api/edit", `{"kind":"reparent","joint":2,"parent":1}`) // its parent already
	if len(ts.log) != 0 {
		t.Errorf("edits that keep the skeleton logged %q", ts.log)
	}
	ts.post("/api/edit", `{"kind":"split","joint":2,"t":0.5}`)
	if !slices.ContainsFunc(ts.log, func(m string) bool { return strings.Contains(m, "re-solve fits them again") }) {
		t.Errorf("no remark on the scale tracks: %q", ts.log)
	}
	ts.Server.mu.Lock()
	cur := ts.Server.hist.current().rig
	ts.Server.mu.Unlock()
	if !cur.HasScale() || cur.Skeleton.Len() != 4 {
		t.Errorf("edited rig: %d joints, scale tracks %v", cur.Skeleton.Len(), cur.HasScale())
	}
}
