package viewer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/seq"
	"github.com/meshrig/meshrig/viewer"
	"github.com/meshrig/meshrig/viewer/web"
)

// The browser tests drive Debian's chromium headless, rendering WebGL in
// software (SwiftShader through ANGLE), as CI has no GPU.
var chromiumFlags = []chromedp.ExecAllocatorOption{
	chromedp.Flag("headless", "new"),
	chromedp.NoSandbox,
	chromedp.Flag("use-angle", "swiftshader"),
	chromedp.Flag("enable-unsafe-swiftshader", true),
	chromedp.NoFirstRun,
	chromedp.NoDefaultBrowserCheck,
	chromedp.Flag("disable-extensions", true),
	chromedp.Flag("disable-background-networking", true),
	chromedp.Flag("disable-sync", true),
	chromedp.Flag("mute-audio", true),
	// A page nobody looks at must still draw every frame.
	chromedp.Flag("disable-background-timer-throttling", true),
	chromedp.Flag("disable-backgrounding-occluded-windows", true),
	chromedp.Flag("disable-renderer-backgrounding", true),
	chromedp.WindowSize(1280, 800),
}

// background is the page's clear colour (scene.js), 0x2b2f36.
var background = [3]uint8{0x2b, 0x2f, 0x36}

// chromium returns the browser's path, skipping (or failing under
// MESHRIG_REQUIRE_TOOLS=1) when it is not installed.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	shareddata.RequireTool(t, false, "chromium (apt-get install chromium)")
	return ""
}

// session is a served rig and a browser on its page.
type session struct {
	t      *testing.T
	srv    *viewer.Server
	ctx    context.Context
	saves  string
	query  string
	mu     sync.Mutex
	logs   []string // the server's remarks
	errors []string // the page's exceptions and console errors
}

// open serves r (with its input in, if any) and loads the page in chromium;
// query is added to the page's address ("&aa=1").
func open(t *testing.T, opt viewer.Options, query string) *session {
	t.Helper()
	exe := chromium(t)
	s := &session{t: t, saves: t.TempDir(), query: query}
	// As meshrig view wires it: the default editor (rig/edit), the
	// project's re-solve (method/refit).
	opt.Web = web.FS
	opt.Solve = viewer.Refit("", refit.Options{})
	opt.SaveDir = s.saves
	opt.Logf = func(f string, a ...any) {
		s.mu.Lock()
		s.logs = append(s.logs, fmt.Sprintf(f, a...))
		s.mu.Unlock()
	}
	srv, err := viewer.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	s.srv = srv
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(exe)}, chromiumFlags...)...)
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	tctx, cancelTimeout := context.WithTimeout(bctx, 2*time.Minute) // a safety net, not a speed check
	t.Cleanup(func() { cancelTimeout(); cancelBrowser(); cancelAlloc() })
	s.ctx = tctx
	if err := chromedp.Do(bctx); err != nil { // starts the browser, without a timeout (chromedp.Run's rule)
		t.Fatalf("chromium: %v", err)
	}
	go func() {
		for m, err := range chromedp.Console(tctx) {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				s.mu.Lock()
				s.errors = append(s.errors, m.String())
				s.mu.Unlock()
			}
		}
	}()
	s.do(chromedp.EmulateViewport(1280, 760), chromedp.Navigate(srv.URL()+s.query))
	eval[bool](s, `window.meshrig.ready.then(() => true)`)
	t.Cleanup(s.checkErrors)
	return s
}

// do runs browser actions, failing the test on an error.
func (s *session) do(actions ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, actions...); err != nil {
		s.checkErrors()
		s.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression in the page, awaiting a promise.
func eval[T any](s *session, js string) T {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		s.checkErrors()
		s.t.Fatalf("evaluating %.80q: %v", js, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds.
func (s *session) wait(what, cond string, timeout time.Duration) {
	s.t.Helper()
	if _, err := chromedp.Run(s.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		st, _ := chromedp.Run(s.ctx, chromedp.Evaluate[any](`window.meshrig.state().ui`))
		s.checkErrors()
		s.t.Fatalf("waiting for %s: %v (page: %v)", what, err, st)
	}
}

// expectError drops the page errors containing substr (at least one must).
func (s *session) expectError(substr string) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var kept []string
	for _, e := range s.errors {
		if !strings.Contains(e, substr) {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(s.errors) {
		s.t.Errorf("the page reported no error with %q", substr)
	}
	s.errors = kept
}

func (s *session) checkErrors() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.errors {
		s.t.Errorf("page: %s", e)
	}
	s.errors = nil
}

// screenshot returns the viewport as the browser drew it.
func (s *session) screenshot() image.Image {
	s.t.Helper()
	buf, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		s.t.Fatal(err)
	}
	return img
}

// api sends a GET to the server as the page does and decodes its JSON.
func (s *session) api(path string, out any) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", "http://"+s.srv.Addr()+path, nil)
	req.Header.Set("X-Meshrig-Token", s.srv.Token())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		s.t.Fatalf("GET %s: %s", path, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		s.t.Fatal(err)
	}
}

// firstFrame returns the page's first-frame report from the server log
// (the page posts it once its first frame is drawn, without waiting).
func (s *session) firstFrame() string {
	for range 50 {
		s.mu.Lock()
		for _, l := range s.logs {
			if strings.Contains(l, "first frame") || strings.Contains(l, "first-frame") {
				s.mu.Unlock()
				return l
			}
		}
		s.mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
	return "no first-frame report"
}

type point struct {
	X, Y    float64
	Visible bool
}

// joints returns every joint's position on the page.
func (s *session) joints() []point {
	s.t.Helper()
	return eval[[]point](s, `Array.from({length: meshrig.jointCount()}, (_, i) => meshrig.jointScreen(i))`)
}

func differs(img image.Image, x, y int, c [3]uint8, tol int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	d := func(a uint32, b uint8) int { return int(math.Abs(float64(int(a>>8) - int(b)))) }
	return d(r, c[0]) > tol || d(g, c[1]) > tol || d(b, c[2]) > tol
}

// TestBrowserEditSolveSave is the end-to-end test of meshrig view: a
// generated character and its animation served, the page loaded in
// chromium; the mesh and the skeleton are on the canvas; a joint clicked
// and removed with the panel's button; a re-solve started with its
// button; the rig saved from the Save form and the file checked.
func TestBrowserEditSolveSave(t *testing.T) {
	r, err := character.Generate(character.Biped, character.Options{Frames: 12, Vertices: 1500})
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, viewer.Options{Rig: r, Input: character.Sequence(r), Name: "biped.glb"}, "")
	n := r.Skeleton.Len()
	if got := s.jointCountLoaded(); got != n {
		t.Fatalf("the page loaded %d joints, the rig has %d", got, n)
	}
	t.Logf("server: %s", s.firstFrame())

	// The mesh: with the skeleton hidden (its checkbox), pixels inside the
	// joints' screen box are mostly not background, the corners are.
	s.do(chromedp.Click(chromedp.ID("skeleton")))
	s.wait("the skeleton hidden", `!meshrig.state().ui || !document.getElementById('skeleton').checked`, 5*time.Second)
	time.Sleep(300 * time.Millisecond) // a frame or two
	bare := s.screenshot()
	js := s.joints()
	var box image.Rectangle
	for i, p := range js {
		q := image.Pt(int(p.X), int(p.Y))
		if i == 0 {
			box = image.Rectangle{q, q.Add(image.Pt(1, 1))}
		}
		box = box.Union(image.Rectangle{q, q.Add(image.Pt(1, 1))})
	}
	if box.Dx() < 50 || box.Dy() < 50 {
		t.Fatalf("the skeleton spans %v on screen: not framed", box)
	}
	mesh, all, coloured := 0, 0, 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			all++
			if differs(bare, x, y, background, 6) {
				mesh++
				if saturation(rgbAt(bare, x, y)) > 0.25 {
					coloured++
				}
			}
		}
	}
	frac := float64(mesh) / float64(all)
	t.Logf("mesh pixels in the joints' box %v: %.0f%%, %.0f%% of them coloured", box, 100*frac, 100*float64(coloured)/float64(mesh))
	if frac < 0.25 {
		t.Errorf("only %.0f%% of the pixels in the mesh's screen region differ from the background", 100*frac)
	}
	// Coloured by dominant joint from the start, not grey.
	if coloured < mesh/2 {
		t.Errorf("only %d of %d mesh pixels are coloured: the dominant-joint colours are missing", coloured, mesh)
	}
	canvas := bare.Bounds()
	for _, c := range []image.Point{{2, 40}, {box.Min.X / 2, canvas.Max.Y - 2}} {
		if differs(bare, c.X, c.Y, background, 6) {
			t.Errorf("pixel %v is %v, not the background", c, bare.At(c.X, c.Y))
		}
	}

	// The skeleton: shown again, the pixel at each joint changes.
	s.do(chromedp.Click(chromedp.ID("skeleton")))
	time.Sleep(300 * time.Millisecond)
	drawn := s.screenshot()
	changed := 0
	for _, p := range js {
		if differs(drawn, int(p.X), int(p.Y), rgbAt(bare, int(p.X), int(p.Y)), 20) {
			changed++
		}
	}
	t.Logf("joints drawn over the mesh: %d of %d", changed, n)
	if changed < n*9/10 {
		t.Errorf("the skeleton changes the pixel at only %d of %d joints", changed, n)
	}

	// Remove a joint through the UI: click the joint farthest on screen
	// from the others, then the Remove button.
	s.clickJoint(`j.parent >= 0`)
	v0 := eval[int](s, `meshrig.state().version`)
	s.do(chromedp.Click(chromedp.ID("remove")))
	s.wait("the edited rig loaded", fmt.Sprintf(`meshrig.jointCount() === %d && meshrig.state().ui.loadedVersion > %d`, n-1, v0), 20*time.Second)

	// Re-solve with the button; the page shows the new rig when done.
	v1 := eval[int](s, `meshrig.state().version`)
	start := time.Now()
	s.do(chromedp.Click(chromedp.ID("solve")))
	s.wait("the re-solve", fmt.Sprintf(`meshrig.state().ui.loadedVersion > %d && !document.getElementById('solve').disabled`, v1), 60*time.Second)
	t.Logf("re-solve after removing a joint, seen by the page: %v", time.Since(start).Round(time.Millisecond))
	var st viewer.State
	s.api("/api/state", &st)
	if len(st.Joints) != n-1 || st.Report.Bones != n-1 {
		t.Fatalf("server rig: %d joints, report %d bones; want %d", len(st.Joints), st.Report.Bones, n-1)
	}
	if st.Report.RMSE == nil || !(*st.Report.RMSE > 0) || *st.Report.RMSE > 5 {
		t.Fatalf("server report RMSE %v: want a measured error under 5%% of d", st.Report.RMSE)
	}
	t.Logf("after remove + re-solve: %d bones, RMSE %.3f%%, Max %.3f%% of d", st.Report.Bones, *st.Report.RMSE, *st.Report.Max)
	shown := eval[string](s, `document.getElementById('r-rmse').textContent`)
	if want := fmt.Sprintf("%.3f%%", *st.Report.RMSE); shown != want {
		t.Errorf("the report panel shows RMSE %q, the server %q", shown, want)
	}

	// Save through the form.
	s.do(
		chromedp.SetValue(chromedp.ID("save-path"), "e2e.glb"),
		chromedp.SetValue(chromedp.ID("save-format"), "glb"),
		chromedp.Click(chromedp.ID("save")),
	)
	s.wait("the save", `document.getElementById('save-result').textContent.startsWith('saved')`, 20*time.Second)
	if eval[bool](s, `meshrig.state().dirty`) {
		t.Error("the page still marks the rig unsaved after Save")
	}
	saved := filepath.Join(s.saves, "e2e.glb")
	sc, err := format.ReadScene(saved, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig == nil || sc.Rig.Skeleton.Len() != n-1 {
		t.Fatalf("saved rig: %v, want %d joints", sc.Rig, n-1)
	}
	validate(t, saved)
}

// clickJoint clicks, on the canvas, the joint satisfying the JavaScript
// condition cond (on j, the State joint, and i, its id) that is farthest on
// screen from every other joint, checks the page selected it and returns
// its id.
func (s *session) clickJoint(cond string) int {
	s.t.Helper()
	type pick struct {
		Joint int
		X, Y  float64
	}
	target := eval[pick](s, `(() => {
		const st = meshrig.state(), n = st.joints.length;
		const p = Array.from({length: n}, (_, i) => meshrig.jointScreen(i));
		let best = -1, far = -1;
		for (let i = 0; i < n; i++) {
			const j = st.joints[i];
			if (!(`+cond+`)) continue;
			let d = Infinity;
			for (let k = 0; k < n; k++) if (k !== i) d = Math.min(d, Math.hypot(p[i].x - p[k].x, p[i].y - p[k].y));
			if (d > far) { far = d; best = i; }
		}
		return {joint: best, x: best >= 0 ? p[best].x : 0, y: best >= 0 ? p[best].y : 0};
	})()`)
	if target.Joint < 0 {
		s.t.Fatalf("no joint where %s", cond)
	}
	s.do(chromedp.MouseClickXY(target.X, target.Y))
	if got := eval[int](s, `meshrig.state().ui.selected`); got != target.Joint {
		s.t.Fatalf("clicking joint %d at (%.0f, %.0f) selected %d", target.Joint, target.X, target.Y, got)
	}
	return target.Joint
}

func (s *session) jointCountLoaded() int {
	return eval[int](s, `meshrig.jointCount()`)
}

// saturation is HSL-like chroma over lightness range: 0 for greys, near
// 1 for pure hues.
func saturation(c [3]uint8) float64 {
	hi := max(c[0], c[1], c[2])
	lo := min(c[0], c[1], c[2])
	if hi == 0 {
		return 0
	}
	return float64(hi-lo) / float64(hi)
}

func rgbAt(img image.Image, x, y int) [3]uint8 {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// validate runs the Khronos glTF validator on path.
func validate(t *testing.T, path string) {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..")
	_, nodeErr := exec.LookPath("node")
	_, vErr := os.Stat(filepath.Join(root, ".ci", "node_modules", "gltf-validator"))
	shareddata.RequireTool(t, nodeErr == nil && vErr == nil, "node with the npm package gltf-validator in .ci/node_modules")
	out, err := exec.Command("node", filepath.Join(root, ".ci", "validate-gltf.mjs"), path).CombinedOutput()
	t.Logf("validator: %s", bytes.TrimSpace(out))
	if err != nil || !bytes.Contains(out, []byte(" 0 errors")) {
		t.Fatalf("the Khronos validator rejects the saved file: %v", err)
	}
}

// TestViewScreenshot takes the README's picture and the page's timings on
// a rig given by environment variables (not run in CI):
//
//	MESHRIG_VIEW_RIG=/tmp/horse.glb MESHRIG_VIEW_INPUT=../shared/data/sequences/horse-gallop \
//	MESHRIG_VIEW_SHOT=$PWD/docs/img/view.png go test ./viewer -run ViewScreenshot -v
//
// The error heat map is on, at the worst frame; then the clip plays for
// five seconds and the frame times are logged, with the browser's CPU time.
func TestViewScreenshot(t *testing.T) {
	shot := os.Getenv("MESHRIG_VIEW_SHOT")
	if shot == "" {
		t.Skip("MESHRIG_VIEW_SHOT not set: no screenshot asked for")
	}
	start := time.Now()
	sc, err := format.ReadScene(os.Getenv("MESHRIG_VIEW_RIG"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig == nil {
		t.Fatal("MESHRIG_VIEW_RIG holds no rig")
	}
	var in *seq.Sequence
	if p := os.Getenv("MESHRIG_VIEW_INPUT"); p != "" {
		li, err := format.Load([]string{p}, format.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		in = li.Sequence
	}
	// The picture is antialiased even on a software renderer; playback
	// is timed as the page runs by default.
	s := open(t, viewer.Options{Rig: sc.Rig, Input: in, Name: filepath.Base(os.Getenv("MESHRIG_VIEW_RIG")), Start: start}, "&aa=1")
	t.Logf("server: %s", s.firstFrame())
	t.Logf("page, ms since navigation: %v", eval[any](s, `meshrig.state().ui.timings`))
	if in != nil {
		eval[bool](s, `meshrig.setColorMode('error').then(() => true)`)
		s.do(chromedp.Click(chromedp.ID("r-worst")))
		eval[bool](s, `meshrig.setColorMode('error').then(() => true)`) // the worst frame's errors
	}
	time.Sleep(500 * time.Millisecond)
	buf, err := chromedp.Run(s.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(sc.Rig.Clips) == 0 {
		return // a static rig: nothing to play
	}
	eval[bool](s, `meshrig.setColorMode('joint').then(() => true)`)
	s.do(chromedp.Navigate(s.srv.URL())) // the page as it runs by default
	eval[bool](s, `window.meshrig.ready.then(() => true)`)
	t.Logf("renderer: %v", eval[any](s, `[meshrig.state().ui.renderer, 'antialias', meshrig.state().ui.antialias]`))
	cpu0 := descendantsCPU()
	s.do(chromedp.Click(chromedp.ID("play")))
	time.Sleep(5 * time.Second)
	ft := eval[[]float64](s, `meshrig.frameTimes()`)
	cpu := descendantsCPU() - cpu0
	if len(ft) < 2 {
		t.Fatalf("%d frames drawn while playing", len(ft))
	}
	sort.Float64s(ft)
	t.Logf("playing: %d frames in 5 s, frame time median %.1f ms, p95 %.1f ms; the browser's CPU time %.0f ms per frame",
		len(ft), ft[len(ft)/2], ft[len(ft)*95/100], float64(cpu.Milliseconds())/float64(len(ft)))
}

// descendantsCPU sums the CPU time (user + system) of this process's
// descendants — the browser's processes — from /proc (Linux; 0 elsewhere).
func descendantsCPU() time.Duration {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command name, which is in parentheses: state ppid … utime(14) stime(15).
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 13 {
			continue
		}
		parent[pid], _ = strconv.Atoi(f[1])
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		ticks[pid] = u + st
	}
	self := os.Getpid()
	var sum int64
	for pid, tk := range ticks {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == self {
				sum += tk
				break
			}
		}
	}
	return time.Duration(sum) * time.Second / 100 // USER_HZ is 100 on Linux
}
