package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/metric"
)

type benchOptions struct {
	rig  rigOptions
	json string
	// cpuProfile, when set, receives a pprof CPU profile of the run
	// (loading, rigging and measuring every dataset).
	cpuProfile string
	// --static: skeletonize single meshes instead (cmd_bench_static.go).
	staticMode bool
	static     skeletonizeOptions
}

// benchRow is one line of the benchmark table.
type benchRow struct {
	Dataset string `json:"dataset"`
	metric.Report
	// PeakMB is the process's peak resident memory so far (getrusage's
	// maxrss: loading, rigging and measuring, and every earlier row).
	PeakMB float64 `json:"peak_mb"`
	// BytesPerVertexFrame is PeakMB over the dataset's vertices × frames.
	BytesPerVertexFrame float64 `json:"bytes_per_vertex_frame"`
}

func newBench(g *globals) *cobra.Command {
	o := &benchOptions{static: skeletonizeOptions{weights: "heat", maxInf: 4}}
	cmd := &cobra.Command{
		Use:   "bench [DIR...]",
		Short: "Time a rigging method on the shared sequences (and any folders given) and tabulate the errors",
		Long: `bench rigs every sequence in the shared data's sequences/ folder (found at
$MESHRIG_DATA or ../shared/data) and every folder given, and prints one row per
dataset: vertices, frames, bones, seconds, RMSE%, Max%, normal RMS, and the
process's peak memory so far (resident, from getrusage) with that peak per
vertex and frame of the dataset (meaningful for a run of one dataset, or
for the largest dataset when it comes first).

With --static it skeletonizes single meshes instead (the MESH files given,
or the shared data's static/ meshes, rigs/ meshes with their TGF skeletons
and gltf/ characters in bind pose with their own rigs) with both skeleton
methods (or the one --method names) and heat weights, and prints one row
per mesh and method: vertices, joints, seconds, joint error% where the
truth is known, and the pose test where the truth has motion (the wolf's
poses, the elephant's animation, the glTF clips): pose RMSE% plays the
true motion through our skeleton and weights, each joint following the
true joint whose weights overlap its own the most; truth pose% is the
true rig's own RMSE% on the same frames.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var plan safefile.Plan
			defer plan.Abort()
			plan.Read(args...)
			if err := declareReport(&plan, "--json", o.json); err != nil {
				return err
			}
			if err := declareReport(&plan, "--cpuprofile", o.cpuProfile); err != nil {
				return err
			}
			if o.staticMode {
				return benchStatic(cmd, g, o, &plan, args)
			}
			if err := o.rig.check(); err != nil {
				return err
			}
			dirs := args
			if len(dirs) == 0 {
				root := shareddata.Dir()
				if root == "" {
					return fmt.Errorf("no folders given and no shared data found (set MESHRIG_DATA)")
				}
				ents, err := os.ReadDir(filepath.Join(root, "sequences"))
				if err != nil {
					return err
				}
				for _, e := range ents {
					if e.IsDir() {
						dirs = append(dirs, filepath.Join(root, "sequences", e.Name()))
					}
				}
				sort.Strings(dirs)
			}
			var rows []benchRow
			var prof bytes.Buffer
			if o.cpuProfile != "" {
				if err := pprof.StartCPUProfile(&prof); err != nil {
					return err
				}
				defer pprof.StopCPUProfile()
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%-16s %8s %6s %5s %8s %7s %7s %10s %7s %8s %6s\n", "dataset", "vertices", "frames", "bones", "seconds", "RMSE%", "Max%", "normal RMS", "ACCU%", "peak MB", "B/vf")
			for _, d := range dirs {
				row, err := benchOne(cmd.Context(), g, &o.rig, &plan, d)
				if err != nil {
					return fmt.Errorf("%s: %w", d, err)
				}
				rows = append(rows, row)
				fmt.Fprintf(w, "%-16s %8d %6d %5d %8.2f %7.3f %7.3f %10.4f %7.3f %8.0f %6.0f\n", row.Dataset, row.Vertices, row.Frames,
					row.Bones, row.Seconds, row.RMSEPercent, row.MaxPercent, row.NormalRMS, row.ACCUPercent, row.PeakMB, row.BytesPerVertexFrame)
			}
			if err := stageJSON(&plan, o.json, rows); err != nil {
				return err
			}
			if o.cpuProfile != "" {
				pprof.StopCPUProfile()
				if err := plan.Stage(o.cpuProfile, func(w io.Writer) error { _, err := w.Write(prof.Bytes()); return err }); err != nil {
					return err
				}
			}
			if err := plan.Commit(cmd.Context()); err != nil {
				return err
			}
			return printJSON(w, o.json, rows)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.json, "json", "", "also write the rows as JSON to this file (- for standard output)")
	o.rig.addFlags(f)
	f.Lookup("method").Usage += "; with --static: " + strings.Join(staticMethods, " or ") + " (default: both)"
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the whole run to this file (go tool pprof FILE)")
	f.BoolVar(&o.staticMode, "static", false, "benchmark skeletonize on single meshes (see above)")
	o.static.addShapeFlags(f, "--static, ")
	return cmd
}

// benchOne loads a folder, recording its files on plan, rigs it and
// measures the rig.
func benchOne(ctx context.Context, g *globals, o *rigOptions, plan *safefile.Plan, dir string) (benchRow, error) {
	in, err := (&loadFlags{}).load(ctx, g, []string{dir})
	if err != nil {
		return benchRow{}, err
	}
	plan.Read(in.Files...)
	if err := plan.Check(); err != nil {
		return benchRow{}, err
	}
	quiet := *g
	quiet.quiet = true
	start := time.Now()
	r, name, err := rigWith(ctx, &quiet, o, in.Sequence)
	if err != nil {
		return benchRow{}, err
	}
	secs := time.Since(start).Seconds()
	rep, err := metric.Compare(in.Sequence, r)
	if err != nil {
		return benchRow{}, err
	}
	rep.Method, rep.Seconds = name, secs
	row := benchRow{Dataset: filepath.Base(dir), Report: rep, PeakMB: float64(peakRSS()) / (1 << 20)}
	if vf := rep.Vertices * rep.Frames; vf > 0 {
		row.BytesPerVertexFrame = float64(peakRSS()) / float64(vf)
	}
	return row, nil
}
