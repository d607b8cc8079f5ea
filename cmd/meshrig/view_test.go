package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is an output both the command and the test use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// viewRun is a running `meshrig view`.
type viewRun struct {
	t           *testing.T
	base, token string
	out         *syncBuffer
	stop        func() (string, error)
}

var urlRE = regexp.MustCompile(`(http://[^/\s]+)/\?token=([0-9a-f]+)`)

// startView runs meshrig view with args until the returned stop is
// called (as Ctrl-C would: the command's context ends).
func startView(t *testing.T, args ...string) *viewRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	root := newRoot()
	out := &syncBuffer{}
	root.SetOut(out)
	root.SetErr(out)
	root.SetArgs(append([]string{"view", "--quiet"}, args...))
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	v := &viewRun{t: t, out: out}
	var once sync.Once
	var err error
	v.stop = func() (string, error) {
		once.Do(func() { cancel(); err = <-done })
		return out.String(), err
	}
	t.Cleanup(func() { v.stop() })
	deadline := time.Now().Add(time.Minute) // a hang fails; not a speed check
	for {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			v.base, v.token = m[1], m[2]
			return v
		}
		select {
		case err := <-done:
			t.Fatalf("view stopped: %v\n%s", err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address printed:\n%s", out.String())
		}
	}
}

// call sends a request as the page does and returns status and body.
func (v *viewRun) call(method, path, body string) (int, []byte) {
	v.t.Helper()
	req, err := http.NewRequest(method, v.base+path, strings.NewReader(body))
	if err != nil {
		v.t.Fatal(err)
	}
	req.Header.Set("X-Meshrig-Token", v.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// viewState is the part of the page's state these tests read.
type viewState struct {
	Vertices int
	Static   bool
	HasInput bool
	Joints   []struct{ Name string }
	Clips    []struct{ Frames int }
	Report   struct {
		Bones int
		RMSE  *float64
	}
}

func (v *viewRun) state() viewState {
	v.t.Helper()
	code, b := v.call("GET", "/api/state", "")
	if code != 200 {
		v.t.Fatalf("state: %d %s", code, b)
	}
	var st viewState
	if err := json.Unmarshal(b, &st); err != nil {
		v.t.Fatal(err)
	}
	return st
}

func TestViewRigWithInput(t *testing.T) {
	dir := gen(t, "snake")
	saves := t.TempDir()
	v := startView(t, filepath.Join(dir, "truth.glb"), dir, "--save-dir", saves)
	if !strings.HasPrefix(v.base, "http://127.0.0.1:") {
		t.Errorf("listening at %s, want loopback", v.base)
	}
	st := v.state()
	if st.Vertices == 0 || !st.HasInput || st.Static || len(st.Clips) != 1 || st.Clips[0].Frames != 12 || st.Report.RMSE == nil || *st.Report.RMSE > 0.01 {
		t.Errorf("state %+v", st)
	}
	if code, b := v.call("GET", "/", ""); code != 200 || !bytes.Contains(b, []byte("<html")) {
		t.Errorf("page: %d %.100s", code, b)
	}
	// A request without the token, or naming another host, is refused.
	resp, err := http.Get(v.base + "/api/state")
	if err != nil || resp.StatusCode != 403 {
		t.Errorf("no token: %v %v", resp.StatusCode, err)
	}
	if code, b := v.call("POST", "/api/edit", `{"kind":"rename","joint":1,"name":"neck"}`); code != 200 {
		t.Fatalf("edit: %d %s", code, b)
	}
	if code, b := v.call("POST", "/api/save", `{"path":"snake.glb"}`); code != 200 {
		t.Fatalf("save: %d %s", code, b)
	}
	if _, err := os.Stat(filepath.Join(saves, "snake.glb")); err != nil {
		t.Error(err)
	}
	// The rig read is an input: never written over, even when the save
	// folder holds it.
	v2 := startView(t, filepath.Join(dir, "truth.glb"), "--save-dir", dir)
	before, _ := os.ReadFile(filepath.Join(dir, "truth.glb"))
	if code, b := v2.call("POST", "/api/save", `{"path":"truth.glb"}`); code != 400 || !bytes.Contains(b, []byte("input")) {
		t.Errorf("save over the input: %d %s", code, b)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "truth.glb")); !bytes.Equal(before, after) {
		t.Error("the input changed")
	}
	if st := v2.state(); st.HasInput || !st.Static {
		t.Errorf("a rig alone: %+v", st)
	}

	v.call("POST", "/api/edit", `{"kind":"rename","joint":2,"name":"jaw"}`)
	v.call("POST", "/api/edit", `{"kind":"remove","joint":3}`)
	out, err := v.stop()
	if err != nil {
		t.Errorf("stopping: %v", err)
	}
	if !strings.Contains(out, "2 unsaved edits; not saved") {
		t.Errorf("stop did not report the unsaved edits:\n%s", out)
	}
	if out, _ := v2.stop(); strings.Contains(out, "unsaved") {
		t.Errorf("nothing was edited, yet:\n%s", out)
	}
}

func TestViewRigsFirst(t *testing.T) {
	dir := gen(t, "snake")
	v := startView(t, dir, "--method", "face-clustering")
	if st := v.state(); !st.HasInput || st.Static || st.Report.RMSE == nil || len(st.Joints) < 2 {
		t.Errorf("rigged with face-clustering: %+v", st)
	}
	v.stop()
	// --open without a browser to launch is a note, not a failure.
	t.Setenv("PATH", t.TempDir())
	s := startView(t, filepath.Join(dir, "rest.obj"), "--static", "--open")
	if st := s.state(); st.HasInput || !st.Static || st.Report.RMSE != nil || len(st.Joints) < 2 {
		t.Errorf("skeletonized: %+v", st)
	}
}

func TestViewRefuses(t *testing.T) {
	dir := gen(t, "snake")
	hand := gen(t, "hand")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{filepath.Join(dir, "rest.obj")}, "not a rig: view it with --static"},
		{[]string{dir}, "is a folder, not a rig"},
		{[]string{filepath.Join(dir, "truth.glb"), hand}, "vertices"},
		{[]string{dir, "--method", "nonesuch"}, "unknown method"},
		{[]string{filepath.Join(dir, "rest.obj"), dir, "--static"}, "--static views one mesh"},
		{[]string{filepath.Join(dir, "truth.glb"), "--port", "70000"}, "--port"},
		{[]string{filepath.Join(dir, "truth.glb"), "--weights", "glue"}, "--weights"},
		{[]string{filepath.Join(dir, "truth.glb"), "--listen", "127.0.0.1:8080", "--port", "9090"}, "differs"},
		{[]string{filepath.Join(dir, "truth.glb"), "--save-dir", filepath.Join(dir, "none")}, "save folder"},
	} {
		_, err := run(t, append([]string{"view"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("view %v: %v, want an error saying %q", c.args, err, c.says)
		}
	}
}
