package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

type evalOptions struct {
	json   bool
	report string
	truth  string
	load   loadFlags
}

func newEval(g *globals) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval RIG.glb INPUT...",
		Short: "Measure how well a rig reproduces a mesh animation",
		Long: `eval replays every clip of RIG (a glTF file with a skin) against the frames
of INPUT (anything 'meshrig rig' reads: a folder of OBJ frames, a glob, a point
cache with its rest mesh, a glTF animation) and prints RMSE%, Max%, normal RMS
and per-frame error. With a ground-truth skeleton (--truth, or a glTF INPUT
that has one) it also prints joint error%.`,
		Example: `  meshrig eval out.glb horse-gallop/
  meshrig eval out.glb walk/ --json
  meshrig eval out.glb CesiumMan.glb          # joint error against the file's own skeleton`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := runEval(g, o, args[0], args[1:])
			if err != nil {
				return err
			}
			if o.json {
				return writeJSON("-", rep)
			}
			printReport(cmd.OutOrStdout(), rep)
			if o.report != "" {
				return writeJSON(o.report, rep, args...)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&o.report, "report", "", "also write the JSON report to this file")
	cmd.Flags().StringVar(&o.truth, "truth", "", "ground-truth rig (glTF) for joint error%")
	o.load.add(cmd)
	return cmd
}

func runEval(g *globals, o *evalOptions, rigPath string, inputs []string) (metric.Report, error) {
	sc, err := format.ReadScene(rigPath, format.SceneOptions{})
	if err != nil {
		return metric.Report{}, err
	}
	if sc.Rig == nil {
		return metric.Report{}, fmt.Errorf("%s holds no skinned rig to evaluate", rigPath)
	}
	in, err := o.load.load(g, inputs)
	if err != nil {
		return metric.Report{}, err
	}
	rep, err := metric.Compare(in.Sequence, sc.Rig)
	if err != nil {
		return metric.Report{}, fmt.Errorf("%s against %v: %w", rigPath, inputs, err)
	}
	var truth *rig.Rig
	if o.truth != "" {
		ts, err := format.ReadScene(o.truth, format.SceneOptions{})
		if err != nil {
			return metric.Report{}, err
		}
		if ts.Rig == nil {
			return metric.Report{}, fmt.Errorf("--truth %s holds no skeleton", o.truth)
		}
		truth = ts.Rig
	} else {
		truth = in.Truth
	}
	if truth != nil {
		je := metric.JointError(metric.Heads(&sc.Rig.Skeleton), metric.Heads(&truth.Skeleton), rep.Diagonal)
		rep.JointErrorPercent = &je
	}
	return rep, nil
}
