package viewer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// testPage stands in for viewer/web's bundle.
var testPage = fstest.MapFS{
	"index.html": {Data: []byte("<!doctype html><title>meshrig</title><script src=app.js></script>")},
	"app.js":     {Data: []byte("console.log('meshrig')")},
	"app.css":    {Data: []byte("body{margin:0}")},
}

// snake returns a small generated character and the animation it plays.
func snake(t testing.TB) (*rig.Rig, *seq.Sequence) {
	t.Helper()
	r, err := character.Generate(character.Snake, character.Options{Frames: 6, Vertices: 600})
	if err != nil {
		t.Fatal(err)
	}
	return r, character.Sequence(r)
}

// tserver is a Server with helpers that send requests as the page does.
type tserver struct {
	*Server
	t   testing.TB
	log []string
}

func newServer(t testing.TB, opt Options) *tserver {
	t.Helper()
	ts := &tserver{t: t}
	if opt.Web == nil {
		opt.Web = testPage
	}
	if opt.SaveDir == "" {
		opt.SaveDir = t.TempDir()
	}
	opt.Logf = func(format string, a ...any) { ts.log = append(ts.log, format) }
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ts.Server = s
	return ts
}

// req sends a request with the right Host and token; edit may change it
// first.
func (ts *tserver) req(method, path, body string, edit ...func(*http.Request)) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, path, rd)
	r.Host = ts.Addr()
	r.Header.Set(TokenHeader, ts.Token())
	for _, e := range edit {
		e(r)
	}
	w := httptest.NewRecorder()
	ts.Handler().ServeHTTP(w, r)
	return w
}

// ok sends a request that must answer want, and returns the body.
func (ts *tserver) ok(method, path, body string, want int) []byte {
	ts.t.Helper()
	w := ts.req(method, path, body)
	if w.Code != want {
		ts.t.Fatalf("%s %s %s: %d %s, want %d", method, path, body, w.Code, w.Body.String(), want)
	}
	return w.Body.Bytes()
}

func (ts *tserver) state() State {
	ts.t.Helper()
	var st State
	if err := json.Unmarshal(ts.ok("GET", "/api/state", "", 200), &st); err != nil {
		ts.t.Fatal(err)
	}
	return st
}

func (ts *tserver) glb() []byte {
	ts.t.Helper()
	return ts.ok("GET", "/api/rig.glb", "", 200)
}

// wantError checks a 4xx answer: its status and a one-line JSON error.
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, contains string) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d (%.200q), want %d", w.Code, w.Body.String(), status)
	}
	var e apiError
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" {
		t.Fatalf("error body %q is not {\"error\": ...}", w.Body.String())
	}
	if strings.Contains(e.Error, "\n") {
		t.Errorf("error %q spans lines", e.Error)
	}
	if !strings.Contains(e.Error, contains) {
		t.Errorf("error %q does not say %q", e.Error, contains)
	}
}

func floats(t *testing.T, b []byte) []float32 {
	t.Helper()
	if len(b)%4 != 0 {
		t.Fatalf("%d bytes is not float32s", len(b))
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func TestDefaultListenIsLoopback(t *testing.T) {
	r, _ := snake(t)
	ts := newServer(t, Options{Rig: r})
	host, _, err := net.SplitHostPort(ts.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		t.Errorf("bound %s, want a loopback address", ts.Addr())
	}
	if !strings.HasPrefix(ts.URL(), "http://127.0.0.1:") || !strings.HasSuffix(ts.URL(), "/?token="+ts.Token()) {
		t.Errorf("URL %s", ts.URL())
	}
	if len(ts.Token()) != 32 {
		t.Errorf("token %q: want 32 hex digits", ts.Token())
	}
	other := newServer(t, Options{Rig: r})
	if other.Token() == ts.Token() {
		t.Error("two servers drew the same token")
	}
}

func TestSecurity(t *testing.T) {
	r, _ := snake(t)
	ts := newServer(t, Options{Rig: r})
	_, port, _ := net.SplitHostPort(ts.Addr())
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST:" + port, "[::1]:" + port} {
		if w := ts.req("GET", "/api/state", "", func(r *http.Request) { r.Host = host }); w.Code != 200 {
			t.Errorf("Host %s: %d %s", host, w.Code, w.Body)
		}
	}
	for _, host := range []string{"evil.example:" + port, "127.0.0.1", "127.0.0.1:1", "", "localhost.evil.example:" + port} {
		for _, path := range []string{"/api/state", "/"} {
			w := ts.req("GET", path, "", func(r *http.Request) { r.Host = host })
			wantError(t, w, http.StatusForbidden, "Host")
		}
	}
	wantError(t, ts.req("GET", "/api/state", "", func(r *http.Request) { r.Header.Del(TokenHeader) }), 403, "missing")
	wantError(t, ts.req("GET", "/api/rig.glb", "", func(r *http.Request) { r.Header.Set(TokenHeader, flip(ts.Token())) }), 403, "wrong")
	wantError(t, ts.req("POST", "/api/undo", "", func(r *http.Request) { r.Header.Set(TokenHeader, ts.Token()+"0") }), 403, "wrong")
	// The token in the query is for the page, not a way around the header.
	wantError(t, ts.req("GET", "/api/state?token="+ts.Token(), "", func(r *http.Request) { r.Header.Del(TokenHeader) }), 403, "missing")

	// Static files need no token, and say who may frame or refer.
	w := ts.req("GET", "/", "", func(r *http.Request) { r.Header.Del(TokenHeader) })
	if w.Code != 200 || !strings.Contains(w.Body.String(), "<title>meshrig") {
		t.Errorf("GET /: %d %q", w.Code, w.Body)
	}
	if w.Header().Get("Referrer-Policy") != "no-referrer" || w.Header().Get("Content-Security-Policy") == "" {
		t.Errorf("page headers %v", w.Header())
	}
	for path, ct := range map[string]string{"/app.js": "javascript", "/app.css": "text/css"} {
		w := ts.req("GET", path, "", func(r *http.Request) { r.Header.Del(TokenHeader) })
		if w.Code != 200 || !strings.Contains(w.Header().Get("Content-Type"), ct) {
			t.Errorf("GET %s: %d %s", path, w.Code, w.Header().Get("Content-Type"))
		}
	}
	for _, path := range []string{"/missing.js", "/.hidden", "/index", "/api/nothing"} {
		if w := ts.req("GET", path, ""); w.Code != 404 {
			t.Errorf("GET %s: %d, want 404", path, w.Code)
		}
	}
	// Only the server's own page may send requests from a browser.
	for _, origin := range []string{"http://evil.example", "http://evil.example:" + port, "null", "https://127.0.0.1:" + port, "http://127.0.0.1:1"} {
		wantError(t, ts.req("POST", "/api/undo", "", func(r *http.Request) { r.Header.Set("Origin", origin) }), 403, "Origin")
	}
	for _, origin := range []string{"http://127.0.0.1:" + port, "http://localhost:" + port} {
		if w := ts.req("GET", "/api/state", "", func(r *http.Request) { r.Header.Set("Origin", origin) }); w.Code != 200 {
			t.Errorf("Origin %s: %d", origin, w.Code)
		}
	}
	// Paths that are not the page's files need the token whatever they say.
	for _, path := range []string{"/api/state", "/./api/state", "//api/state", "/api", "/x/y", "/api/../api/state"} {
		wantError(t, ts.req("GET", path, "", func(r *http.Request) { r.Header.Del(TokenHeader) }), 403, "missing")
	}
	if w := ts.req("DELETE", "/api/state", ""); w.Code/100 != 4 {
		t.Errorf("DELETE /api/state: %d", w.Code)
	}
}

func TestOversizedBody(t *testing.T) {
	r, _ := snake(t)
	ts := newServer(t, Options{Rig: r, Edit: refuseEdits})
	before := ts.glb()
	big := `{"kind":"rename","joint":1,"name":"` + strings.Repeat("a", MaxBody) + `"}`
	for _, path := range []string{"/api/edit", "/api/save", "/api/undo", "/api/solve", "/api/log"} {
		wantError(t, ts.req("POST", path, big), http.StatusRequestEntityTooLarge, "limit")
		// Without a declared length, the limit stops the read.
		wantError(t, ts.req("POST", path, big, func(r *http.Request) { r.ContentLength = -1 }), http.StatusRequestEntityTooLarge, "limit")
	}
	wantError(t, ts.req("POST", "/api/log", `{"event":"`+strings.Repeat("x", 2000)+`","ms":1}`), http.StatusRequestEntityTooLarge, "limit")
	if !bytes.Equal(before, ts.glb()) {
		t.Error("an oversized request changed the rig")
	}
}

// refuseEdits is an Editor that never gets to run in the tests using it.
func refuseEdits(r *rig.Rig, e Edit) (*rig.Rig, []rig.JointID, error) {
	panic("edit reached the editor")
}

func TestStateAndGLB(t *testing.T) {
	r, in := snake(t)
	ts := newServer(t, Options{Rig: r, Input: in, Name: "snake.glb"})
	st := ts.state()
	if st.Version != 1 || st.Name != "snake.glb" || st.Static || !st.HasInput || st.Dirty || st.CanUndo || st.CanRedo {
		t.Errorf("state %+v", st)
	}
	if st.Vertices != len(r.Mesh.Verts) || len(st.Joints) != r.Skeleton.Len() || len(st.Clips) != 1 || st.Clips[0].Frames != 6 || st.Map != nil {
		t.Errorf("state sizes %d vertices, %d joints, clips %+v", st.Vertices, len(st.Joints), st.Clips)
	}
	for j, jt := range r.Skeleton.Joints {
		if st.Joints[j].Name != jt.Name || st.Joints[j].Parent != int(jt.Parent) || st.Joints[j].Head != [3]float64(jt.Head) {
			t.Errorf("joint %d: %+v, want %+v", j, st.Joints[j], jt)
		}
	}
	if math.Abs(st.Diagonal-in.Diagonal()) > 0 {
		t.Errorf("diagonal %v, want %v", st.Diagonal, in.Diagonal())
	}
	// The rig replays its own animation: error at the float32 frames'
	// rounding level.
	rep := st.Report
	if rep.RMSE == nil || *rep.RMSE > 1e-5 || rep.Max == nil || len(rep.PerFrame) != 1 || len(rep.PerFrame[0]) != 6 || rep.WorstClip == nil {
		t.Errorf("report %+v", rep)
	}
	if rep.Bones != r.Skeleton.Len()-countIdle(r) {
		t.Errorf("bones %d", rep.Bones)
	}

	var want bytes.Buffer
	if err := gltfWrite(&want, r); err != nil {
		t.Fatal(err)
	}
	w := ts.req("GET", "/api/rig.glb?v=1", "")
	if w.Code != 200 || w.Header().Get("Content-Type") != "model/gltf-binary" || !bytes.Equal(w.Body.Bytes(), want.Bytes()) {
		t.Errorf("rig.glb: %d %s, %d bytes (want the writer's %d)", w.Code, w.Header().Get("Content-Type"), w.Body.Len(), want.Len())
	}
	back := readGLB(t, w.Body.Bytes())
	if back.Skeleton.Len() != r.Skeleton.Len() || len(back.Mesh.Verts) != len(r.Mesh.Verts) {
		t.Errorf("rig.glb reads back with %d joints, %d vertices", back.Skeleton.Len(), len(back.Mesh.Verts))
	}
	if len(ts.log) == 0 || !strings.Contains(ts.log[0], "first rig.glb") {
		t.Errorf("log %q: want the first rig.glb request timed", ts.log)
	}

	// Without input: static, and a report of bones only.
	st2 := newServer(t, Options{Rig: r}).state()
	if !st2.Static || st2.HasInput || st2.Report.RMSE != nil || st2.Report.PerFrame != nil {
		t.Errorf("state without input %+v", st2)
	}
}

// countIdle counts joints that move no vertex.
func countIdle(r *rig.Rig) int {
	used := make([]bool, r.Skeleton.Len())
	for _, in := range r.Skin {
		for k, w := range in.Weight {
			if w > 0 {
				used[in.Joint[k]] = true
			}
		}
	}
	n := 0
	for _, u := range used {
		if !u {
			n++
		}
	}
	return n
}

func TestNewChecksInput(t *testing.T) {
	r, in := snake(t)
	other, err := character.Generate(character.Hand, character.Options{Frames: 6, Vertices: 600})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Rig: other, Input: in}); err == nil || !strings.Contains(err.Error(), "vertices") {
		t.Errorf("a hand against a snake's animation: %v", err)
	}
	long, err := character.Generate(character.Snake, character.Options{Frames: 7, Vertices: 600})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Rig: long, Input: in}); err == nil || !strings.Contains(err.Error(), "frames") {
		t.Errorf("7 frames against 6: %v", err)
	}
	if _, err := New(Options{}); err == nil {
		t.Error("no rig: no error")
	}
	if _, err := New(Options{Rig: r, Listen: "127.0.0.1"}); err == nil {
		t.Error("listen address without a port: no error")
	}
	if _, err := New(Options{Rig: r, SaveDir: "/no/such/folder"}); err == nil {
		t.Error("missing save folder: no error")
	}
}

func TestErrorAndInput(t *testing.T) {
	r, in := snake(t)
	// Make the rig wrong so errors are not all zero: shift one joint's
	// weights.
	bad := *r
	bad.Skin = append(rig.Skin(nil), r.Skin...)
	for i := range bad.Skin {
		if bad.Skin[i].Joint[0] == 3 {
			bad.Skin[i] = rig.Influence{Joint: [4]rig.JointID{2}, Weight: [4]float64{1}}
		}
	}
	ts := newServer(t, Options{Rig: &bad, Input: in})
	d := in.Diagonal()
	for _, f := range []int{0, 3, 5} {
		got := floats(t, ts.ok("GET", "/api/error?clip=0&frame="+itoa(f), "", 200))
		posed := bad.Frame(nil, 0, f)
		want := in.FrameInto(nil, f)
		if len(got) != len(want) {
			t.Fatalf("frame %d: %d errors for %d vertices", f, len(got), len(want))
		}
		var nonzero int
		for i := range want {
			e := 100 * posed[i].Dist(want[i]) / d
			if math.Abs(float64(got[i])-e) > 1e-6*max(1, e) {
				t.Fatalf("frame %d vertex %d: error %v, want %v", f, i, got[i], e)
			}
			if e > 0 {
				nonzero++
			}
		}
		if f > 0 && nonzero == 0 {
			t.Errorf("frame %d: no vertex off; the test rig is not wrong", f)
		}
		pos := floats(t, ts.ok("GET", "/api/input?clip=0&frame="+itoa(f), "", 200))
		if len(pos) != 3*len(want) {
			t.Fatalf("input frame %d: %d floats", f, len(pos))
		}
		for i, v := range want {
			for k := 0; k < 3; k++ {
				if pos[3*i+k] != float32(v[k]) {
					t.Fatalf("input frame %d vertex %d: %v, want %v", f, i, pos[3*i:3*i+3], v)
				}
			}
		}
	}
	for _, q := range []string{"", "?clip=0", "?frame=0", "?clip=1&frame=0", "?clip=0&frame=6", "?clip=0&frame=-1", "?clip=x&frame=0", "?clip=0&frame=1&frame=2"} {
		wantError(t, ts.req("GET", "/api/error"+q, ""), 400, "")
		wantError(t, ts.req("GET", "/api/input"+q, ""), 400, "")
	}
	plain := newServer(t, Options{Rig: r})
	wantError(t, plain.req("GET", "/api/error?clip=0&frame=0", ""), 404, "no input")
	wantError(t, plain.req("GET", "/api/input?clip=0&frame=0", ""), 404, "no input")
}

// flip changes the first hex digit of a token.
func flip(tok string) string {
	if tok[0] == '0' {
		return "1" + tok[1:]
	}
	return "0" + tok[1:]
}

func itoa(i int) string { return strconv.Itoa(i) }

func gltfWrite(w io.Writer, r *rig.Rig) error { return gltf.Write(w, r, format.WriteOptions{}) }

// readGLB reads a GLB with the project's glTF reader.
func readGLB(t *testing.T, b []byte) *rig.Rig {
	t.Helper()
	sc, err := gltf.ReadScene(fstest.MapFS{"rig.glb": {Data: b}}, "rig.glb", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig == nil {
		t.Fatal("the GLB holds no rig")
	}
	return sc.Rig
}

func TestLog(t *testing.T) {
	r, _ := snake(t)
	ts := newServer(t, Options{Rig: r})
	ts.ok("POST", "/api/log", `{"event":"first-frame","ms":123}`, http.StatusNoContent)
	ts.ok("POST", "/api/log", `{"event":"frame-time","ms":16.7}`, http.StatusNoContent)
	if n := len(ts.log); n < 2 || !strings.HasPrefix(ts.log[n-2], "first frame:") || !strings.HasPrefix(ts.log[n-1], "frame time:") {
		t.Errorf("log %q", ts.log)
	}
	for _, body := range []string{``, `{}`, `{"event":"first-frame"}`, `{"event":"First Frame","ms":1}`, `{"event":"unknown","ms":1}`,
		`{"event":"first-frame","ms":-1}`, `{"event":"first-frame","ms":"1"}`, `{"event":"first-frame","ms":1,"extra":2}`,
		`{"event":"first-frame","ms":1} {}`, `[1]`, `{"event":"first-frame","ms":1e400}`, `{"event":"first-frame","ms":null}`} {
		wantError(t, ts.req("POST", "/api/log", body), 400, "")
	}
}

var _ fs.FS = testPage

func TestTwoClips(t *testing.T) {
	r, _ := snake(t)
	two := *r
	second := r.Clips[0]
	second.Name = "again"
	// The second clip plays the first backwards from its fourth frame.
	n := r.Skeleton.Len()
	second.Frames = 4
	second.Rotation, second.Translation = nil, nil
	for f := 3; f >= 0; f-- {
		second.Rotation = append(second.Rotation, r.Clips[0].Rotation[f*n:(f+1)*n]...)
		second.Translation = append(second.Translation, r.Clips[0].Translation[f*n:(f+1)*n]...)
	}
	two.Clips = []rig.Clip{r.Clips[0], second}
	in := character.Sequence(&two)
	spoilt := spoiled(&two)
	ts := newServer(t, Options{Rig: spoilt, Input: in})
	st := ts.state()
	if len(st.Clips) != 2 || st.Clips[1].Name != "again" || st.Clips[1].Frames != 4 {
		t.Fatalf("clips %+v", st.Clips)
	}
	rep := st.Report
	if len(rep.PerFrame) != 2 || len(rep.PerFrame[0]) != 6 || len(rep.PerFrame[1]) != 4 {
		t.Fatalf("per-frame errors shaped %d clips", len(rep.PerFrame))
	}
	// Frame 1 of clip "again" is frame 2 of the first: the same error.
	if rep.PerFrame[1][1] != rep.PerFrame[0][2] || rep.PerFrame[1][1] == 0 {
		t.Errorf("clip 1 frame 1 RMSE%% %v, clip 0 frame 2 %v", rep.PerFrame[1][1], rep.PerFrame[0][2])
	}
	worst := rep.PerFrame[*rep.WorstClip][*rep.WorstFrame]
	for _, per := range rep.PerFrame {
		for _, e := range per {
			if e > worst {
				t.Errorf("worst frame %v, but %v is larger", worst, e)
			}
		}
	}
	got := floats(t, ts.ok("GET", "/api/error?clip=1&frame=1", "", 200))
	posed := spoilt.Frame(nil, 1, 1)
	want := in.FrameInto(nil, 6+1)
	for i := range want {
		e := 100 * posed[i].Dist(want[i]) / in.Diagonal()
		if math.Abs(float64(got[i])-e) > 1e-6*max(1, e) {
			t.Fatalf("vertex %d: error %v, want %v", i, got[i], e)
		}
	}
	pos := floats(t, ts.ok("GET", "/api/input?clip=1&frame=3", "", 200))
	if v := in.Frame(9)[5]; pos[15] != float32(v[0]) || pos[17] != float32(v[2]) {
		t.Errorf("input clip 1 frame 3 vertex 5: %v, want %v", pos[15:18], v)
	}
	wantError(t, ts.req("GET", "/api/error?clip=1&frame=4", ""), 400, "frame")
}
