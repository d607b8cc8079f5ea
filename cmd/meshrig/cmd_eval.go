package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

type evalOptions struct {
	json     bool
	perFrame bool
	report   string
	truth    string
	rigClip  string
	load     loadFlags
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
that has one) it also prints joint error%.

A RIG file that plays more than meshrig's rig holds (an FBX or glTF with more
than four influences per vertex, joints that scale) is measured twice: "file
playback" is the file played as its format defines, every influence kept (the
peer's own error, e.g. Dem Bones' Decomposition_20.fbx); the figures after it
are the rig meshrig reads from the file (four largest weights, rotations and
translations).`,
		Example: `  meshrig eval out.glb horse-gallop/
  meshrig eval out.glb walk/ --json
  meshrig eval out.glb CesiumMan.glb          # joint error against the file's own skeleton
  meshrig eval Decomposition_20.fbx Bone_Anim.abc   # a peer's FBX result against its input
  meshrig eval Optimized.fbx Bone_Anim.abc --rig-clip demBones`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.load.check(); err != nil {
				return err
			}
			var plan safefile.Plan
			defer plan.Abort()
			plan.Read(args...)
			plan.Read(o.truth, o.load.restFile())
			if err := declareReport(&plan, "--report", o.report); err != nil {
				return err
			}
			rep, err := runEval(cmd.Context(), g, o, &plan, args[0], args[1:])
			if err != nil {
				return err
			}
			if err := stageJSON(&plan, o.report, rep); err != nil {
				return err
			}
			if err := plan.Commit(cmd.Context()); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if o.json {
				b, err := jsonBytes(rep)
				if err != nil {
					return err
				}
				_, err = w.Write(b)
				return err
			}
			printReport(w, rep)
			if o.perFrame {
				for f, e := range rep.FrameRMSEPercent {
					fmt.Fprintf(w, "frame %4d    RMSE%% %.4f\n", f+1, e)
				}
			}
			return printJSON(w, o.report, rep)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&o.perFrame, "per-frame", false, "also print every frame's RMSE%")
	cmd.Flags().StringVar(&o.report, "report", "", "also write the JSON report to this file (- for standard output)")
	cmd.Flags().StringVar(&o.truth, "truth", "", "ground-truth skeleton for joint error%: a glTF rig or a libigl .tgf")
	cmd.Flags().StringVar(&o.rigClip, "rig-clip", "", "measure only this clip (animation) of RIG, as for a file that also keeps the clip it started from")
	o.load.add(cmd)
	return cmd
}

// runEval reads the rig and the inputs, recording every file read on
// plan, and measures the rig against the inputs.
func runEval(ctx context.Context, g *globals, o *evalOptions, plan *safefile.Plan, rigPath string, inputs []string) (metric.Report, error) {
	sc, err := format.ReadScene(rigPath, format.SceneOptions{Clip: o.rigClip})
	if err != nil {
		return metric.Report{}, err
	}
	plan.Read(sc.Files...)
	if sc.Rig == nil {
		return metric.Report{}, fmt.Errorf("%s holds no skinned rig to evaluate", rigPath)
	}
	in, err := o.load.load(ctx, g, inputs)
	if err != nil {
		return metric.Report{}, err
	}
	plan.Read(in.Files...)
	if err := plan.Check(); err != nil {
		return metric.Report{}, err
	}
	rep, err := metric.Compare(in.Sequence, sc.Rig)
	if err != nil {
		return metric.Report{}, fmt.Errorf("%s against %v: %w", rigPath, inputs, err)
	}
	// The file's own playback, every influence kept, where it may differ
	// from the rig read from it (at most four influences): a peer's
	// result is measured as the peer plays it.
	if sc.Sequence != nil && sc.Sequence.F() == in.Sequence.F() && sc.Sequence.N() == in.Sequence.N() {
		if pb, err := metric.ComparePlayback(in.Sequence, sc.Sequence); err == nil {
			pb.Bones, pb.Joints = rep.Bones, rep.Joints
			rep.Playback = &pb
		}
	}
	var joints []linalg.Vec3
	switch {
	case o.truth != "":
		if joints, err = truthJoints(o.truth, plan); err != nil {
			return metric.Report{}, err
		}
	case in.Truth != nil:
		joints = metric.DeformingHeads(in.Truth)
	}
	if joints != nil {
		je := metric.JointError(metric.Heads(&sc.Rig.Skeleton), joints, rep.Diagonal)
		rep.JointErrorPercent = &je
	}
	return rep, nil
}

// truthJoints reads a ground-truth skeleton's joints: a glTF (or any
// scene) rig, or a skeleton file such as libigl's TGF. Files read are
// recorded on plan when it is not nil.
func truthJoints(path string, plan *safefile.Plan) ([]linalg.Vec3, error) {
	f, _, err := format.ByPath(path)
	if err != nil {
		return nil, fmt.Errorf("--truth: %w", err)
	}
	if f.Joints != nil {
		rc, err := format.Open(path)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		joints, err := f.Joints(rc)
		if err != nil {
			return nil, format.WithFile(err, path)
		}
		return joints, nil
	}
	ts, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		return nil, err
	}
	if plan != nil {
		plan.Read(ts.Files...)
	}
	if ts.Rig == nil && ts.Skeleton != nil && ts.Skeleton.Len() > 0 {
		// A skeleton without a skin: every joint counts, none is known
		// not to deform.
		heads := make([]linalg.Vec3, ts.Skeleton.Len())
		for j, jt := range ts.Skeleton.Joints {
			heads[j] = jt.Head
		}
		return heads, nil
	}
	if ts.Rig == nil {
		return nil, fmt.Errorf("--truth %s holds no skeleton", path)
	}
	return metric.DeformingHeads(ts.Rig), nil
}
