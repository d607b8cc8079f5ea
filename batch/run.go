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

// Run does items (a shard's) in their order. Each item is prepared just
// before its turn — its files listed and hashed, its size measured — so
// the first starts at once however long the list: one whose report is up
// to date is skipped; the others run through opt.Runner, at most opt.Jobs
// at once and, but for one too large to share, within opt.MaxMemory.
// Every item gets a report, a failed one too (bad or missing input, the
// runner's error) while the others go on. When ctx ends, no new item
// starts, the running ones are stopped by their Runner, no report is
// written for them, and Run returns ctx's cause. An error writing a report
// (the output folder failing) stops Run the same way.
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
	r := &runner{opt: opt, t: Totals{Total: len(items)}, done: make(chan outcome)}
	err := r.loop(ctx, items)
	return r.t, err
}

// runner is one Run's state.
type runner struct {
	opt      Options
	t        Totals
	finished int
	done     chan outcome
	running  int
	used     int64 // the running items' estimates
}

func (r *runner) emit(kind string, rep Report) {
	r.finished++
	switch kind {
	case StatusDone:
		r.t.Done++
	case StatusFailed:
		r.t.Failed++
	default:
		r.t.Skipped++
	}
	if r.opt.Events != nil {
		r.opt.Events(Event{Kind: kind, Report: rep, Finished: r.finished, Total: r.t.Total})
	}
}

// loop prepares the items in order and starts each that must run as soon
// as it fits beside the running ones (or none runs), settling finished
// items meanwhile.
func (r *runner) loop(ctx context.Context, items []Item) error {
	var next *task // prepared, waiting for room
	var firstErr error
	k := 0
	for {
		for firstErr == nil && ctx.Err() == nil {
			if next == nil {
				if k == len(items) {
					break
				}
				tk, err := r.prepare(items[k])
				k++
				if err != nil {
					firstErr = err
					break
				}
				if tk == nil {
					continue // skipped or failed, reported
				}
				next = tk
			}
			if r.running >= r.opt.Jobs || (r.running > 0 && r.opt.MaxMemory > 0 && r.used+next.estimate > r.opt.MaxMemory) {
				break
			}
			r.start(ctx, next)
			next = nil
		}
		if r.running == 0 {
			break
		}
		if err := r.settle(ctx, <-r.done); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// prepare readies an item: nil when it is settled already (up to date,
// or failed before it could start, reported either way).
func (r *runner) prepare(it Item) (*task, error) {
	tk, prev, err := prepare(it, r.opt)
	if err != nil {
		rep := r.opt.report(tk, "")
		rep.Status, rep.Error = StatusFailed, err.Error()
		if werr := writeReport(r.opt.OutDir, rep, tk.files); werr != nil {
			return nil, werr
		}
		r.emit(StatusFailed, rep)
		return nil, nil
	}
	if upToDate(prev, it, tk.digest, r.opt.OutDir) {
		r.emit("skipped", *prev)
		return nil, nil
	}
	return tk, nil
}

func (r *runner) start(ctx context.Context, tk *task) {
	r.running++
	r.used += tk.estimate
	go func() {
		res, err := r.opt.start(ctx, tk)
		r.done <- outcome{tk, res, err}
	}()
}

// settle writes a finished item's report.
func (r *runner) settle(ctx context.Context, o outcome) error {
	r.running--
	r.used -= o.tk.estimate
	if o.err != nil && ctx.Err() != nil {
		return nil // stopped by the interrupt, not failed: no report
	}
	rep := r.opt.report(o.tk, o.tk.digest)
	rep.Seconds = time.Since(o.tk.started).Seconds()
	kind := StatusDone
	if o.err != nil {
		kind, rep.Error = StatusFailed, o.err.Error()
	} else {
		rep.Vertices, rep.Frames, rep.Bones, rep.Joints = o.res.Vertices, o.res.Frames, o.res.Bones, o.res.Joints
		rep.RMSEPercent, rep.MaxPercent = o.res.RMSEPercent, o.res.MaxPercent
	}
	rep.Status = kind
	rep.CPUSeconds = o.res.CPUSeconds
	rep.PeakMB = float64(o.res.PeakBytes) / (1 << 20)
	if err := writeReport(r.opt.OutDir, rep, o.tk.files); err != nil {
		return err
	}
	r.emit(kind, rep)
	return nil
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
