package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/meshrig/meshrig/internal/safefile"
)

// Runner rigs one item. It must write the rig to Job.Output atomically
// (a killed or failed run leaves the previous file, or none) and stop
// when ctx is done.
type Runner interface {
	Run(ctx context.Context, job Job) (Result, error)
}

// Job is one item to rig, with where its rig goes.
type Job struct {
	Item Item
	// Output is the rig's path: the output folder joined with Item.Output.
	Output string
}

// Result is what a Runner measured of a finished item.
type Result struct {
	Vertices, Frames, Bones, Joints int
	RMSEPercent, MaxPercent         float64
	CPUSeconds                      float64
	PeakBytes                       int64
}

// Options steer Run.
type Options struct {
	// OutDir is the output folder every shard shares: rigs at their
	// items' Output, reports under ReportDir.
	OutDir string
	// Jobs is how many items run at once (1 when 0).
	Jobs int
	// MaxMemory bounds the sum of the running items' estimated peaks
	// (bytes; 0: no bound but Jobs). An item estimated above it runs
	// alone.
	MaxMemory int64
	// Model estimates each item's peak (DefaultModel when zero).
	Model MemoryModel
	// Shard names the shard in the reports.
	Shard Shard
	// Version is the meshrig version written in the reports.
	Version string
	// Runner rigs each item.
	Runner Runner
	// Events, when set, hears of each item as it is skipped, done or
	// failed, in that order of happening.
	Events func(Event)
}

// Event is an item skipped, done or failed.
type Event struct {
	Kind   string // "skipped", StatusDone or StatusFailed
	Report Report
	// Finished of Total items of the shard are settled so far.
	Finished, Total int
}

// Totals counts a run's items.
type Totals struct {
	Total, Skipped, Done, Failed int
}

// task is an item ready to run: its files read, its size known.
type task struct {
	item     Item
	files    []string
	digest   string
	size     Size
	estimate int64
	started  time.Time
}

// Run does items (a shard's): each one whose report is up to date is
// skipped; the others run through opt.Runner, at most opt.Jobs at once
// and, but for one too large to share, within opt.MaxMemory, in the
// items' order. Every item gets a report, a failed one too (bad or
// missing input, the runner's error) while the others go on. When ctx
// ends, no new item starts, the running ones are stopped by their
// Runner, no report is written for them, and Run returns ctx's cause.
func Run(ctx context.Context, items []Item, opt Options) (Totals, error) {
	if opt.Jobs < 1 {
		opt.Jobs = 1
	}
	if opt.Model == (MemoryModel{}) {
		opt.Model = DefaultModel
	}
	if opt.Runner == nil {
		return Totals{}, fmt.Errorf("batch: no runner")
	}
	if err := os.MkdirAll(filepath.Join(opt.OutDir, ReportDir), 0o755); err != nil {
		return Totals{}, err
	}
	t := Totals{Total: len(items)}
	finished := 0
	emit := func(kind string, r Report) {
		finished++
		switch kind {
		case StatusDone:
			t.Done++
		case StatusFailed:
			t.Failed++
		default:
			t.Skipped++
		}
		if opt.Events != nil {
			opt.Events(Event{Kind: kind, Report: r, Finished: finished, Total: t.Total})
		}
	}
	var todo []*task
	for _, it := range items {
		if err := context.Cause(ctx); ctx.Err() != nil {
			return t, err
		}
		tk, prev, err := prepare(it, opt)
		if err != nil {
			r := opt.report(tk, "")
			r.Status, r.Error = StatusFailed, err.Error()
			if werr := writeReport(opt.OutDir, r, tk.files); werr != nil {
				return t, werr
			}
			emit(StatusFailed, r)
			continue
		}
		if upToDate(prev, it, tk.digest, opt.OutDir) {
			emit("skipped", *prev)
			continue
		}
		todo = append(todo, tk)
	}
	return t, opt.pool(ctx, todo, emit)
}

// prepare lists an item's files, hashes them, sizes the item and reads
// its earlier report.
func prepare(it Item, opt Options) (*task, *Report, error) {
	tk := &task{item: it}
	files, err := it.Files()
	if err != nil {
		return tk, nil, err
	}
	tk.files = files
	if tk.digest, err = Digest(files); err != nil {
		return tk, nil, err
	}
	tk.size = it.Measure(files)
	tk.estimate = opt.Model.Estimate(tk.size)
	if it.MemoryMB > 0 {
		tk.estimate = int64(it.MemoryMB * (1 << 20))
	}
	prev, err := readReport(ReportPath(opt.OutDir, it.ID))
	if err != nil {
		prev = nil // an unreadable report is no proof of work: redo the item
	}
	return tk, prev, nil
}

type outcome struct {
	tk  *task
	res Result
	err error
}

// pool runs tasks in order, starting the next while fewer than Jobs run
// and its estimate fits beside theirs (or none runs).
func (opt Options) pool(ctx context.Context, todo []*task, emit func(string, Report)) error {
	done := make(chan outcome)
	running, next := 0, 0
	var used int64
	var firstErr error
	for {
		for next < len(todo) && ctx.Err() == nil && running < opt.Jobs &&
			(running == 0 || opt.MaxMemory <= 0 || used+todo[next].estimate <= opt.MaxMemory) {
			tk := todo[next]
			next++
			running++
			used += tk.estimate
			go func() {
				res, err := opt.start(ctx, tk)
				done <- outcome{tk, res, err}
			}()
		}
		if running == 0 {
			break
		}
		o := <-done
		running--
		used -= o.tk.estimate
		if o.err != nil && ctx.Err() != nil {
			continue // stopped by the interrupt, not failed: no report
		}
		r := opt.report(o.tk, o.tk.digest)
		r.Seconds = time.Since(o.tk.started).Seconds()
		kind := StatusDone
		if o.err != nil {
			kind, r.Error = StatusFailed, o.err.Error()
		} else {
			r.Vertices, r.Frames, r.Bones, r.Joints = o.res.Vertices, o.res.Frames, o.res.Bones, o.res.Joints
			r.RMSEPercent, r.MaxPercent = o.res.RMSEPercent, o.res.MaxPercent
		}
		r.Status = kind
		r.CPUSeconds = o.res.CPUSeconds
		r.PeakMB = float64(o.res.PeakBytes) / (1 << 20)
		if err := writeReport(opt.OutDir, r, o.tk.files); err != nil && firstErr == nil {
			firstErr = err // the output folder fails: stop starting items
			next = len(todo)
		}
		emit(kind, r)
	}
	if firstErr != nil {
		return firstErr
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// start clears what a killed earlier run left of the item and runs it.
func (opt Options) start(ctx context.Context, tk *task) (Result, error) {
	tk.started = time.Now()
	out := filepath.Join(opt.OutDir, tk.item.Output)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return Result{}, err
	}
	for _, p := range []string{out, ReportPath(opt.OutDir, tk.item.ID)} {
		if _, err := safefile.RemoveStale(p); err != nil {
			return Result{}, err
		}
	}
	return opt.Runner.Run(ctx, Job{Item: tk.item, Output: out})
}

// report starts an item's report with what is known before it runs.
func (opt Options) report(tk *task, digest string) Report {
	return Report{
		ID: tk.item.ID, Inputs: tk.item.Inputs, Digest: digest, Options: tk.item.Rig,
		Output: tk.item.Output, Version: opt.Version, Shard: opt.Shard.String(),
		Vertices: tk.size.Vertices, Frames: tk.size.Frames,
		EstimateMB: float64(tk.estimate) / (1 << 20), Finished: time.Now().UTC(),
	}
}
