package viewer

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// waitSolve polls GET /api/solve until no solve runs, and returns the
// last answer.
func (ts *tserver) waitSolve() solveState {
	ts.t.Helper()
	deadline := time.Now().Add(2 * time.Minute) // a hang fails, not a speed check
	for {
		var st solveState
		if err := json.Unmarshal(ts.ok("GET", "/api/solve", "", 200), &st); err != nil {
			ts.t.Fatal(err)
		}
		if !st.Running {
			return st
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("solve still running: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// spoiled returns r with the weights of every vertex on joint 3 moved to
// joint 2: a rig a re-solve can improve.
func spoiled(r *rig.Rig) *rig.Rig {
	bad := *r
	bad.Skin = append(rig.Skin(nil), r.Skin...)
	for i := range bad.Skin {
		if bad.Skin[i].Joint[0] == 3 {
			bad.Skin[i] = rig.Influence{Joint: [4]rig.JointID{2}, Weight: [4]float64{1}}
		}
	}
	return &bad
}

func TestSolveRefitsAnimation(t *testing.T) {
	r, in := snake(t)
	ts := newServer(t, Options{Rig: spoiled(r), Input: in})
	before := ts.state()
	glb := ts.glb()
	if *before.Report.RMSE < 0.05 {
		t.Fatalf("the spoiled rig's RMSE%% is only %v", *before.Report.RMSE)
	}
	var started map[string]bool
	json.Unmarshal(ts.ok("POST", "/api/solve", "", 202), &started)
	if !started["started"] {
		t.Errorf("answer %v", started)
	}
	if st := ts.waitSolve(); st.Error != "" || st.Stage != "done" {
		t.Fatalf("solve ended with %+v", st)
	}
	after := ts.state()
	if after.Version != before.Version+1 || !after.CanUndo || !after.Dirty {
		t.Errorf("after the solve: version %d (was %d), canUndo %v, dirty %v", after.Version, before.Version, after.CanUndo, after.Dirty)
	}
	if *after.Report.RMSE > *before.Report.RMSE/2 {
		t.Errorf("RMSE%% %v → %v: the re-solve did not repair the weights", *before.Report.RMSE, *after.Report.RMSE)
	}
	for j := range after.Joints {
		if after.Joints[j] != before.Joints[j] {
			t.Errorf("joint %d changed: %+v → %+v", j, before.Joints[j], after.Joints[j])
		}
	}
	// The answer's report is metric.Compare's on the rig now served.
	back := readGLB(t, ts.glb())
	if len(back.Clips) != 1 || back.Clips[0].Frames != 6 {
		t.Errorf("re-solved GLB clips %d", len(back.Clips))
	}
	ts.ok("POST", "/api/undo", "", 200)
	if !bytes.Equal(glb, ts.glb()) {
		t.Error("undo after the solve did not restore the rig")
	}
	if len(ts.log) == 0 {
		t.Error("the finished solve was not logged")
	}
}

func TestSolveStatic(t *testing.T) {
	r, _ := snake(t)
	r.Clips = nil
	ts := newServer(t, Options{Rig: spoiled(r), Static: true})
	before := ts.glb()
	ts.ok("POST", "/api/solve", "{}", 202)
	if st := ts.waitSolve(); st.Error != "" {
		t.Fatalf("solve: %s", st.Error)
	}
	st := ts.state()
	if st.Version != 2 || bytes.Equal(before, ts.glb()) {
		t.Errorf("static re-solve: version %d, rig changed %v", st.Version, !bytes.Equal(before, ts.glb()))
	}
	back := readGLB(t, ts.glb())
	if back.Skeleton.Len() != r.Skeleton.Len() {
		t.Errorf("%d joints after re-binding, want %d", back.Skeleton.Len(), r.Skeleton.Len())
	}
}

// blockingSolver reports one stage, then waits for release or ctx.
type blockingSolver struct {
	entered, release chan struct{}
}

func (b *blockingSolver) solve(ctx context.Context, r *rig.Rig, in *seq.Sequence, p method.Progress) (*rig.Rig, error) {
	p("fitting", 1, 4)
	close(b.entered)
	select {
	case <-b.release:
		return r, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestSolveBusyCancelAndRace(t *testing.T) {
	r, in := snake(t)
	b := &blockingSolver{make(chan struct{}), make(chan struct{})}
	ts := newServer(t, Options{Rig: r, Input: in, Solve: b.solve})
	wantError(t, ts.req("DELETE", "/api/solve", ""), 400, "no re-solve")
	ts.ok("POST", "/api/solve", "", 202)
	<-b.entered
	wantError(t, ts.req("POST", "/api/solve", ""), 409, "already running")
	var st solveState
	json.Unmarshal(ts.ok("GET", "/api/solve", "", 200), &st)
	if !st.Running || st.Stage != "fitting" || st.Done != 1 || st.Total != 4 {
		t.Errorf("progress %+v", st)
	}
	ts.ok("DELETE", "/api/solve", "", 200)
	if st := ts.waitSolve(); st.Error != "cancelled" {
		t.Errorf("cancelled solve: %+v", st)
	}
	if v := ts.state().Version; v != 1 {
		t.Errorf("a cancelled solve changed the version to %d", v)
	}
	wantError(t, ts.req("POST", "/api/solve", `{"now":true}`), 400, "unknown field")

	// A solve whose rig changed meanwhile is dropped: two solves, the
	// first one's result undone while the second runs.
	b2 := &blockingSolver{make(chan struct{}), make(chan struct{})}
	ts.opt.Solve = b2.solve
	ts.ok("POST", "/api/solve", "", 202)
	<-b2.entered
	close(b2.release)
	if st := ts.waitSolve(); st.Error != "" {
		t.Fatal(st.Error)
	}
	b3 := &blockingSolver{make(chan struct{}), make(chan struct{})}
	ts.opt.Solve = b3.solve
	ts.ok("POST", "/api/solve", "", 202)
	<-b3.entered
	ts.ok("POST", "/api/undo", "", 200)
	v := ts.state().Version
	close(b3.release)
	if st := ts.waitSolve(); st.Error == "" {
		t.Error("a solve of a rig that changed meanwhile was kept")
	}
	if ts.state().Version != v {
		t.Error("the dropped solve changed the version")
	}
}

func TestCloseStopsSolve(t *testing.T) {
	r, in := snake(t)
	b := &blockingSolver{make(chan struct{}), make(chan struct{})}
	ts := newServer(t, Options{Rig: r, Input: in, Solve: b.solve})
	ts.ok("POST", "/api/solve", "", 202)
	<-b.entered
	ts.Close() // returns only once the solve has stopped
	if st := ts.waitSolve(); st.Error != "cancelled" {
		t.Errorf("after Close: %+v", st)
	}
}
