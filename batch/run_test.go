package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meshrig/meshrig/internal/safefile"
)

const triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"

// library makes n items, each a folder of two OBJ frames.
func library(t *testing.T, n int) (dir string, items []Item) {
	dir = t.TempDir()
	for k := 0; k < n; k++ {
		id := fmt.Sprintf("c%d", k)
		sub := filepath.Join(dir, "in", id)
		os.MkdirAll(sub, 0o755)
		for f := 1; f <= 2; f++ {
			os.WriteFile(filepath.Join(sub, fmt.Sprintf("frame-%d.obj", f)), []byte(triangle), 0o644)
		}
		it := Item{ID: id, Inputs: []string{sub}}
		if err := it.check(); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	return dir, items
}

// fake rigs an item by writing its id through safefile, counting calls,
// the items running at once and their memory.
type fake struct {
	mu             sync.Mutex
	calls          map[string]int
	running, most  int
	mem, mostMem   float64
	fail           map[string]bool
	block          string        // this item waits for ctx
	started        chan struct{} // closed when block starts
	hold           time.Duration // how long each item takes
	memOf          func(Item) float64
	stopped, sawMe bool
}

func (f *fake) Run(ctx context.Context, j Job) (Result, error) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[j.Item.ID]++
	f.running++
	f.most = max(f.most, f.running)
	m := 0.0
	if f.memOf != nil {
		m = f.memOf(j.Item)
	}
	f.mem += m
	f.mostMem = max(f.mostMem, f.mem)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.running--
		f.mem -= m
		f.mu.Unlock()
	}()
	if j.Item.ID == f.block {
		close(f.started)
		<-ctx.Done()
		return Result{}, context.Cause(ctx)
	}
	time.Sleep(f.hold)
	if f.fail[j.Item.ID] {
		return Result{CPUSeconds: 0.5}, errors.New("bad mesh")
	}
	var p safefile.Plan
	defer p.Abort()
	if err := p.Output("-o", j.Output); err != nil {
		return Result{}, err
	}
	p.Stage(j.Output, func(w io.Writer) error { _, err := io.WriteString(w, j.Item.ID); return err })
	return Result{Vertices: 3, Frames: 2, Bones: 1, RMSEPercent: float64(len(j.Item.ID)), PeakBytes: 5 << 20}, p.Commit(ctx)
}

func TestRunResumes(t *testing.T) {
	dir, items := library(t, 5)
	out := filepath.Join(dir, "out")
	// c2 refers to a missing folder, c3 fails in the runner.
	items[2].Inputs = []string{filepath.Join(dir, "in", "gone")}
	f := &fake{fail: map[string]bool{"c3": true}}
	var events []Event
	opt := Options{OutDir: out, Jobs: 2, Runner: f, Version: "test", Shard: Shard{1, 3}, Events: func(e Event) { events = append(events, e) }}
	tot, err := Run(context.Background(), items, opt)
	if err != nil {
		t.Fatal(err)
	}
	if tot != (Totals{Total: 5, Done: 3, Failed: 2}) || len(events) != 5 || events[4].Finished != 5 {
		t.Fatalf("totals %+v, %d events", tot, len(events))
	}
	reps, err := ReadReports(out)
	if err != nil || len(reps) != 5 {
		t.Fatalf("%d reports, %v", len(reps), err)
	}
	for _, r := range reps {
		switch r.ID {
		case "c2":
			if r.Status != StatusFailed || !strings.Contains(r.Error, "gone: no such file or folder") {
				t.Errorf("c2: %+v", r)
			}
		case "c3":
			if r.Status != StatusFailed || r.Error != "bad mesh" || r.CPUSeconds != 0.5 {
				t.Errorf("c3: %+v", r)
			}
		default:
			b, _ := os.ReadFile(filepath.Join(out, r.ID+".glb"))
			if r.Status != StatusDone || string(b) != r.ID || r.Shard != "1/3" || r.Version != "test" || r.PeakMB != 5 ||
				r.Vertices != 3 || r.Frames != 2 || !strings.HasPrefix(r.Digest, "sha256:") || r.Options.Method != "ledeng" {
				t.Errorf("%s: %+v, output %q", r.ID, r, b)
			}
		}
	}

	// Rerun: only the failed items again; then fix them and change one input.
	f.calls = nil
	if tot, err := Run(context.Background(), items, opt); err != nil || tot != (Totals{Total: 5, Skipped: 3, Failed: 2}) || len(f.calls) != 1 || f.calls["c3"] != 1 {
		t.Fatalf("rerun: %+v %v, calls %v", tot, err, f.calls)
	}
	items[2].Inputs = []string{filepath.Join(dir, "in", "c2")}
	f.fail, f.calls = nil, nil
	os.WriteFile(filepath.Join(dir, "in", "c4", "frame-2.obj"), []byte(triangle+"v 1 1 1\n"), 0o644)
	if tot, err := Run(context.Background(), items, opt); err != nil || tot.Done != 3 || tot.Skipped != 2 ||
		fmt.Sprint(f.calls) != "map[c2:1 c3:1 c4:1]" {
		t.Fatalf("after changes: %+v %v, calls %v", tot, err, f.calls)
	}
	// Changed options redo the item; a deleted output too.
	items[0].Rig.Bones = 7
	os.Remove(filepath.Join(out, "c1.glb"))
	f.calls = nil
	if _, err := Run(context.Background(), items, opt); err != nil || fmt.Sprint(f.calls) != "map[c0:1 c1:1]" {
		t.Fatalf("options changed: %v, calls %v", err, f.calls)
	}
}

// TestRunMemoryBound: the running items' estimates never exceed
// MaxMemory, and one item larger than it still runs, alone.
func TestRunMemoryBound(t *testing.T) {
	dir, items := library(t, 8)
	sizes := []float64{300, 300, 300, 900, 100, 100, 100, 2000}
	for k := range items {
		items[k].MemoryMB = sizes[k]
	}
	f := &fake{hold: 20 * time.Millisecond, memOf: func(it Item) float64 { return it.MemoryMB }}
	opt := Options{OutDir: filepath.Join(dir, "out"), Jobs: 3, MaxMemory: 1000 << 20, Runner: f}
	if tot, err := Run(context.Background(), items, opt); err != nil || tot.Done != 8 {
		t.Fatalf("%+v %v", tot, err)
	}
	if f.mostMem > 2000 || f.most > 3 || f.most < 2 {
		t.Errorf("at most %v MiB and %d items at once", f.mostMem, f.most)
	}
	if f.mostMem > 1000 && f.mostMem != 2000 {
		t.Errorf("the 2000 MiB item ran beside another: %v MiB at once", f.mostMem)
	}
}

// TestRunInterrupted: an interrupt stops the running item without a
// report or output and starts no other; a rerun does the rest only.
func TestRunInterrupted(t *testing.T) {
	dir, items := library(t, 4)
	out := filepath.Join(dir, "out")
	f := &fake{block: "c2", started: make(chan struct{})}
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { <-f.started; cancel(errors.New("interrupted")) }()
	opt := Options{OutDir: out, Runner: f}
	tot, err := Run(ctx, items, opt)
	if err == nil || err.Error() != "interrupted" || tot.Done != 2 {
		t.Fatalf("%+v %v", tot, err)
	}
	for _, gone := range []string{"c2.glb", "c3.glb", "reports/c2.json", "reports/c3.json"} {
		if _, err := os.Stat(filepath.Join(out, gone)); err == nil {
			t.Errorf("%s written", gone)
		}
	}
	f.block, f.calls = "", nil
	if tot, err := Run(context.Background(), items, opt); err != nil || tot.Skipped != 2 || fmt.Sprint(f.calls) != "map[c2:1 c3:1]" {
		t.Fatalf("rerun: %+v %v %v", tot, err, f.calls)
	}
}

func TestSummarize(t *testing.T) {
	var reps []Report
	for k := 0; k < 8; k++ {
		reps = append(reps, Report{ID: fmt.Sprint(k), Status: StatusDone, Shard: fmt.Sprintf("%d/3", k%3), Vertices: 10, Frames: k,
			Seconds: 1, CPUSeconds: 2, PeakMB: float64(k), RMSEPercent: float64(k % 5)})
	}
	reps[7].Status = StatusFailed
	s := Summarize(reps)
	if s.Items != 8 || s.Done != 7 || s.Failed != 1 || s.Frames != 21 || s.VertexFrames != 210 || s.Seconds != 7 || s.CPUSeconds != 14 ||
		s.PeakMB != 6 || len(s.Worst) != 5 || s.Worst[0].RMSEPercent != 4 || s.Failures[0].ID != "7" || strings.Join(s.Shards, " ") != "0/3 1/3 2/3" {
		t.Errorf("%+v", s)
	}
	if m := (0.0 + 1 + 2 + 3 + 4 + 0 + 1) / 7; s.MeanRMSEPercent != m {
		t.Errorf("mean RMSE%% %v, want %v", s.MeanRMSEPercent, m)
	}
}

func TestMeasure(t *testing.T) {
	_, items := library(t, 1)
	files, err := items[0].Files()
	if err != nil {
		t.Fatal(err)
	}
	if s := items[0].Measure(files); s != (Size{Vertices: 3, Frames: 2}) {
		t.Errorf("size %+v", s)
	}
	// A point cache beside its rest mesh: 10 frames of 3 vertices (a
	// 12-byte header counts as at most one more frame).
	dir := t.TempDir()
	rest, cache := filepath.Join(dir, "rest.obj"), filepath.Join(dir, "anim.pc2")
	os.WriteFile(rest, []byte(triangle), 0o644)
	os.WriteFile(cache, make([]byte, 32+12*3*10), 0o644)
	it := Item{ID: "c", Inputs: []string{rest, cache}}
	if files, err := it.Files(); err != nil || it.Measure(files) != (Size{Vertices: 3, Frames: 10}) {
		t.Errorf("cache: %+v %v", it.Measure(files), err)
	}
	it = Item{ID: "c", Inputs: []string{cache}, Rig: RigOptions{Rest: rest}}
	if files, err := it.Files(); err != nil || it.Measure(files) != (Size{Vertices: 3, Frames: 10}) {
		t.Errorf("cache with --rest: %+v %v", it.Measure(files), err)
	}
	// A scene's size is not known.
	glb := filepath.Join(dir, "a.glb")
	os.WriteFile(glb, []byte("glTF"), 0o644)
	if s := (Item{ID: "g", Inputs: []string{glb}}).Measure([]string{glb}); s != (Size{}) {
		t.Errorf("scene: %+v", s)
	}
	m := MemoryModel{Base: 100, PerVertex: 10, PerVertexFrame: 2, Unknown: 7}
	if e := m.Estimate(Size{3, 2}); e != 100+30+12 {
		t.Errorf("estimate %d", e)
	}
	if e := m.Estimate(Size{}); e != 7 {
		t.Errorf("unknown estimate %d", e)
	}
}

// TestRunLibraryMoved: the digest, not the inputs' paths, decides, so a
// library moved (or mounted elsewhere) is not redone; a manifest read
// from another working folder resolves to the same items.
func TestRunLibraryMoved(t *testing.T) {
	dir, items := library(t, 3)
	f := &fake{}
	opt := Options{OutDir: filepath.Join(dir, "out"), Runner: f}
	if _, err := Run(context.Background(), items, opt); err != nil || len(f.calls) != 3 {
		t.Fatalf("%v %v", err, f.calls)
	}
	if err := os.Rename(filepath.Join(dir, "in"), filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "moved", "lib.jsonl"), []byte(`{"id":"c0","input":"c0"}
{"id":"c1","input":"c1"}
{"id":"c2","input":"c2"}
`), 0o644)
	t.Chdir(filepath.Join(dir, "moved", "c1"))
	moved, err := ReadManifest("../lib.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := filepath.EvalSymlinks(moved[0].Inputs[0])
	b, _ := filepath.EvalSymlinks(filepath.Join(dir, "moved", "c0"))
	if !filepath.IsAbs(moved[0].Inputs[0]) || a != b {
		t.Errorf("input resolved to %s", moved[0].Inputs[0])
	}
	f.calls = nil
	if tot, err := Run(context.Background(), moved, opt); err != nil || tot.Skipped != 3 || len(f.calls) != 0 {
		t.Errorf("moved library: %+v %v, calls %v", tot, err, f.calls)
	}
}
