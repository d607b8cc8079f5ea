package main

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/meshrig/meshrig/batch"
)

type batchOptions struct {
	out       string
	jobs      int
	maxMemory string
	shard     string
	shards    int
}

func newBatch(g *globals) *cobra.Command {
	o := &batchOptions{}
	cmd := &cobra.Command{
		Use:   "batch MANIFEST -o OUTDIR [--jobs K] [--shard I/N]",
		Short: "Rig a library of animations: resumable, a few at a time, sharded across machines",
		Long: `batch rigs every item of MANIFEST into OUTDIR, as meshrig rig would one by
one, each in its own child process.

MANIFEST is a JSON Lines file, one item per line:
  {"id":"horse","input":"horse-gallop/","bones":25}
  {"id":"hero","input":["walk/","run/"],"rest":"hero-rest.obj","output":"chars/hero.dae"}
keys: id, input (a path or glob, or a list: one clip each), output (inside
OUTDIR; default ID.glb), method, bones, skeleton, rest, fps, frames, clip,
iterations, init_bones, max_influences, seed, search, stretch, fast, memory_mb.
Relative paths are the manifest folder's. Or MANIFEST is a folder whose subfolders are the items.
Every line is checked before any work.

Each item writes its rig and OUTDIR/reports/ID.json (inputs' digest, options,
version, bones, RMSE%, Max%, seconds, CPU seconds, peak memory), each by a
temporary file and a rename. An item whose report matches its inputs and
options now is skipped, so a rerun finishes what a killed run left. A failed
item is reported and the others go on; the exit status is 1 when any failed.

Sharding: --shard I/N does shard I (from 0) of N: items sorted by id, the
k-th to shard k mod N. In a Kubernetes Indexed Job the index comes from
JOB_COMPLETION_INDEX (give --shards N, the Job's completions); in a Slurm
array from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT.

--jobs K runs K items at once while their predicted peaks (memory model:
32 MiB + 4 KiB per vertex + 40 B per vertex-frame, or the item's memory_mb)
fit in --max-memory; one item larger than that runs alone.`,
		Example: `  meshrig batch library.jsonl -o rigs/ --jobs 2
  meshrig batch library.jsonl -o rigs/ --shard 0/4      # one of four machines
  meshrig batch report rigs/                            # the morning after`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBatch(cmd, g, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output folder shared by every shard (required)")
	f.IntVarP(&o.jobs, "jobs", "j", 1, "items at once, 1 to 256")
	f.StringVar(&o.maxMemory, "max-memory", "", "memory the running items may use together, e.g. 6G (default: 90% of the container's limit or of the machine's memory)")
	f.StringVar(&o.shard, "shard", "", "do shard I of N (I from 0), e.g. 1/4 (default: from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, else all)")
	f.IntVar(&o.shards, "shards", 0, "number of shards when the index comes from JOB_COMPLETION_INDEX (the Job's completions)")
	cmd.MarkFlagRequired("output")
	cmd.AddCommand(newBatchReport(g))
	return cmd
}

// shardOf settles the shard: --shard, else the environment, else all.
func (o *batchOptions) shardOf() (batch.Shard, error) {
	if o.shard != "" {
		if o.shards != 0 {
			return batch.Shard{}, fmt.Errorf("give --shard I/N or --shards N, not both")
		}
		s, err := batch.ParseShard(o.shard)
		if err != nil {
			return s, fmt.Errorf("--shard: %w", err)
		}
		return s, nil
	}
	if o.shards < 0 || o.shards > 1_000_000 {
		return batch.Shard{}, fmt.Errorf("--shards %d: want 1 to 1000000", o.shards)
	}
	s, ok, err := batch.ShardFromEnv(os.Getenv, o.shards)
	switch {
	case err != nil:
		return s, err
	case !ok && o.shards > 1:
		return s, fmt.Errorf("--shards %d: no JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID says which; give --shard I/N", o.shards)
	case !ok:
		return batch.All, nil
	}
	return s, nil
}

func (o *batchOptions) memory() (int64, error) {
	if o.maxMemory != "" {
		v, err := batch.ParseSize(o.maxMemory)
		if err != nil {
			return 0, fmt.Errorf("--max-memory: %w", err)
		}
		return v, nil
	}
	return batch.MemoryLimit() / 10 * 9, nil
}

func runBatch(cmd *cobra.Command, g *globals, o *batchOptions, manifest string) error {
	if err := intIn("--jobs", o.jobs, 1, 256); err != nil {
		return err
	}
	shard, err := o.shardOf()
	if err != nil {
		return err
	}
	maxMem, err := o.memory()
	if err != nil {
		return err
	}
	if o.out == "" {
		return fmt.Errorf("give the output folder with -o OUTDIR")
	}
	items, err := batch.ReadManifest(manifest)
	if err != nil {
		return err
	}
	if st, err := os.Stat(o.out); err == nil && !st.IsDir() {
		return fmt.Errorf("-o %s is a file: batch writes a folder", o.out)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the meshrig binary to run items: %w", err)
	}
	mine := shard.Items(items)
	g.logf("shard %s: %d of %d items, %d at once within %.1f GiB", shard, len(mine), len(items), o.jobs, float64(maxMem)/(1<<30))
	w := cmd.OutOrStdout()
	bar := newBatchBar(g, len(mine))
	start := time.Now()
	tot, err := batch.Run(cmd.Context(), mine, batch.Options{
		OutDir: o.out, Jobs: o.jobs, MaxMemory: maxMem, Shard: shard, Version: versionText(),
		Runner: batch.Exec{Path: self},
		Events: func(e batch.Event) {
			bar.clear() // the line goes above the bar, not through it
			printEvent(w, e)
			bar.set(e.Finished)
		},
	})
	bar.clear()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "shard %s: %d done, %d up to date, %d failed of %d items in %.1f s\n",
		shard, tot.Done, tot.Skipped, tot.Failed, tot.Total, time.Since(start).Seconds())
	if tot.Failed > 0 {
		return fmt.Errorf("%d of %d items failed (their errors are above and in %s)", tot.Failed, tot.Total, batch.ReportPath(o.out, "ID"))
	}
	return nil
}

// batchBar counts settled items on stderr when it is a terminal; it is
// cleared while a line is printed, and redrawn after.
type batchBar struct{ pb *progressbar.ProgressBar }

func newBatchBar(g *globals, total int) *batchBar {
	if g.quiet || total == 0 || !term.IsTerminal(int(os.Stderr.Fd())) {
		return &batchBar{}
	}
	pb := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription("batch"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish(),
	)
	return &batchBar{pb}
}

func (b *batchBar) set(n int) {
	if b.pb != nil {
		b.pb.Set(n)
	}
}

func (b *batchBar) clear() {
	if b.pb != nil {
		b.pb.Clear()
		fmt.Fprint(os.Stderr, "\r")
	}
}

// printEvent writes one line per settled item.
func printEvent(w io.Writer, e batch.Event) {
	r := e.Report
	n := fmt.Sprintf("[%d/%d]", e.Finished, e.Total)
	switch e.Kind {
	case batch.StatusDone:
		fmt.Fprintf(w, "%s done     %s  bones %d  RMSE%% %.4f  Max%% %.4f  %.1f s (CPU %.1f s)  peak %.0f MB\n",
			n, r.ID, r.Bones, r.RMSEPercent, r.MaxPercent, r.Seconds, r.CPUSeconds, r.PeakMB)
	case batch.StatusFailed:
		fmt.Fprintf(w, "%s FAILED   %s  %s\n", n, r.ID, r.Error)
	default:
		fmt.Fprintf(w, "%s skipped  %s  (up to date)\n", n, r.ID)
	}
}

func newBatchReport(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "report OUTDIR",
		Short: "Merge every shard's item reports into one table, with totals and the worst items",
		Long: `report reads OUTDIR/reports/*.json, written by every shard of a batch into
the shared output folder, and prints one row per item, the totals (items
done and failed, seconds, CPU seconds, the largest peak memory, the mean
RMSE%), the five worst items by RMSE% and every failure with its error.
--json prints the same as {"summary": …, "items": […]}. The exit status
is 1 when any item failed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reps, err := batch.ReadReports(args[0])
			if err != nil {
				return err
			}
			sum := batch.Summarize(reps)
			w := cmd.OutOrStdout()
			if asJSON {
				b, err := jsonBytes(struct {
					Summary batch.Summary  `json:"summary"`
					Items   []batch.Report `json:"items"`
				}{sum, reps})
				if err != nil {
					return err
				}
				_, err = w.Write(b)
				return err
			}
			printBatchReport(w, reps, sum)
			if sum.Failed > 0 {
				return fmt.Errorf("%d of %d items failed", sum.Failed, sum.Items)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary and every item's report as JSON")
	return cmd
}

func printBatchReport(w io.Writer, reps []batch.Report, s batch.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "id\tstatus\tshard\tvertices\tframes\tbones\tRMSE%\tMax%\tseconds\tCPU s\tpeak MB\t")
	for _, r := range reps {
		if r.Status != batch.StatusDone {
			fmt.Fprintf(tw, "%s\t%s\t%s\t\t\t\t\t\t%.1f\t%.1f\t\t\n", r.ID, r.Status, r.Shard, r.Seconds, r.CPUSeconds)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%.4f\t%.4f\t%.1f\t%.1f\t%.0f\t\n",
			r.ID, r.Status, r.Shard, r.Vertices, r.Frames, r.Bones, r.RMSEPercent, r.MaxPercent, r.Seconds, r.CPUSeconds, r.PeakMB)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nitems %d: %d done, %d failed (shards %v)\n", s.Items, s.Done, s.Failed, s.Shards)
	fmt.Fprintf(w, "seconds %.1f, CPU seconds %.1f, largest peak %.0f MB, mean RMSE%% %.4f\n", s.Seconds, s.CPUSeconds, s.PeakMB, s.MeanRMSEPercent)
	if len(s.Worst) > 0 {
		fmt.Fprintf(w, "worst:")
		for _, r := range s.Worst {
			fmt.Fprintf(w, " %s (%.4f)", r.ID, r.RMSEPercent)
		}
		fmt.Fprintln(w)
	}
	for _, r := range s.Failures {
		fmt.Fprintf(w, "failed: %s: %s\n", r.ID, r.Error)
	}
}
