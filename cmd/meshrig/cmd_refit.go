package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/method/registry"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

type refitOptions struct {
	out          string
	report       string
	collada      string
	maxInf       int
	iterations   int
	solve        string
	refineJoints bool
	weights      string
	load         loadFlags
}

func newRefit(g *globals) *cobra.Command {
	o := &refitOptions{}
	cmd := &cobra.Command{
		Use:   "refit RIG [INPUT...] -o OUT.glb|OUT.dae",
		Short: "Fit a rig whose skeleton was edited (in meshrig view, Blender, …) to its animation again",
		Long: `refit takes a rig whose skeleton was edited anywhere — joints moved, added,
removed or reparented in meshrig view, or in Blender and exported as glTF or
Collada — and fits skin weights (at most --max-influences per vertex) and
per-frame joint rotations plus root translation to the animation INPUT with
that skeleton held fixed: joint names, order, hierarchy and rest positions
come back as they went in (--refine-joints lets the positions move). It
prints the reconstruction error of the result, as rig does.

INPUT is read as rig reads it (folders of frames, point caches, glTF or
Collada animations; --rest, --fps, --clip, --frames) and must have the rig's
vertex count. --solve weights keeps the rig's own clips (they must cover
INPUT's frames); --solve motion keeps its weights.

With no INPUT the rig must be static (no clips): its weights are bound to
the edited skeleton again with --weights (heat by default).`,
		Example: `  meshrig refit horse-edited.glb horse-gallop/ -o horse-refit.glb
  meshrig refit hero-blender.glb walk/ run/ --rest rest.obj -o hero.glb --report refit.json
  meshrig refit armadillo-edited.glb -o armadillo.glb --weights geodesic`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRefit(cmd, g, o, args[0], args[1:])
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output rig: .glb or .gltf (glTF 2.0) or .dae (Collada) (required)")
	f.StringVar(&o.report, "report", "", "write the JSON report to this file (- for standard output)")
	f.StringVar(&o.collada, "collada", "", "Collada version for .dae output (default 1.4.1)")
	f.IntVar(&o.maxInf, "max-influences", 4, "most joints per vertex (1–4)")
	f.IntVar(&o.iterations, "iterations", 20, "rounds of rotation fit and weight solve, 1 to 1000 (fewer when a round gains under 0.1%)")
	f.StringVar(&o.solve, "solve", "both", "what to fit: both (weights and motion), weights (the rig's clips kept) or motion (its weights kept)")
	f.BoolVar(&o.refineJoints, "refine-joints", false, "let the joints' rest positions move where the motion locates them better (the hierarchy stays)")
	f.StringVar(&o.weights, "weights", string(skinweights.Heat), "with no INPUT: skin weights heat, geodesic, distance or rigid")
	o.load.add(cmd)
	cmd.MarkFlagRequired("output")
	return cmd
}

func (o *refitOptions) check() error {
	if _, err := refit.ParseSolve(o.solve); err != nil {
		return fmt.Errorf("--solve: %w", err)
	}
	if _, err := skinweights.ParseScheme(o.weights); err != nil {
		return fmt.Errorf("--weights: %w", err)
	}
	if o.collada != "" && o.collada != "1.4.1" && o.collada != "1.5" {
		return fmt.Errorf("--collada %q: want 1.4.1 or 1.5", o.collada)
	}
	return firstErr(
		intIn("--max-influences", o.maxInf, 1, 4),
		intIn("--iterations", o.iterations, 1, 1000),
	)
}

func runRefit(cmd *cobra.Command, g *globals, o *refitOptions, rigPath string, inputs []string) error {
	ctx := cmd.Context()
	if err := firstErr(o.check(), o.load.check()); err != nil {
		return err
	}
	var plan safefile.Plan
	defer plan.Abort()
	plan.Read(rigPath)
	plan.Read(inputs...)
	plan.Read(o.load.restFile())
	if err := firstErr(declareRig(&plan, "-o", o.out), declareReport(&plan, "--report", o.report)); err != nil {
		return err
	}
	sc, err := format.ReadScene(rigPath, format.SceneOptions{Context: ctx})
	if err != nil {
		return err
	}
	plan.Read(sc.Files...)
	if sc.Rig == nil {
		return fmt.Errorf("%s holds no skinned rig to refit", rigPath)
	}
	solve, _ := refit.ParseSolve(o.solve)
	ro := registry.Options{MaxInfluences: o.maxInf, Iterations: o.iterations, Solve: solve, RefineJoints: o.refineJoints,
		Weights: o.weights, Notes: func(msg string) { g.logf("note: %s", msg) }}
	opt := format.WriteOptions{Version: o.collada}
	if len(inputs) == 0 {
		return refitStatic(cmd, g, o, &plan, rigPath, sc.Rig, ro, opt)
	}
	in, err := o.load.load(ctx, g, inputs)
	if err != nil {
		return err
	}
	plan.Read(in.Files...)
	if err := plan.Check(); err != nil {
		return err
	}
	progress, finish := g.progress("refitting")
	ro.Progress = progress
	start := time.Now()
	// Every animation method refits alike (registry.Entry.Refit).
	out, fit, err := registry.Animations()[0].Refit(ctx, sc.Rig, in.Sequence, ro)
	finish(err)
	if err != nil {
		return fmt.Errorf("%s: %w", rigPath, err)
	}
	secs := time.Since(start).Seconds()
	g.logf("refit: %d rounds; RMSE%% %.4f at the start (weights from the %s, motion from the %s)", fit.Rounds, fit.StartRMSEPercent, fit.WeightsFrom, fit.MotionFrom)
	rep, err := metric.Compare(in.Sequence, out)
	if err != nil {
		return err
	}
	rep.Method, rep.Seconds = "refit", secs
	if in.Truth != nil {
		je := metric.JointError(metric.Heads(&out.Skeleton), metric.DeformingHeads(in.Truth), rep.Diagonal)
		rep.JointErrorPercent = &je
	}
	if err := writeRigs(ctx, g, &plan, []string{o.out}, []*rig.Rig{out}, opt, o.report, rep); err != nil {
		return err
	}
	printReport(cmd.OutOrStdout(), rep)
	return printJSON(cmd.OutOrStdout(), o.report, rep)
}

// refitStatic binds a static rig's mesh to its edited skeleton again.
func refitStatic(cmd *cobra.Command, g *globals, o *refitOptions, plan *safefile.Plan, rigPath string, r *rig.Rig, ro registry.Options, opt format.WriteOptions) error {
	ctx := cmd.Context()
	if n := len(r.Clips); n > 0 {
		return fmt.Errorf("%s has %s: give the animation to fit as INPUT (with no INPUT only a static rig's weights are solved again)", rigPath, count(n, "clip"))
	}
	if err := plan.Check(); err != nil {
		return err
	}
	start := time.Now()
	out, _, err := registry.Statics()[0].Refit(ctx, r, nil, ro)
	if err != nil {
		return fmt.Errorf("%s: %w", rigPath, err)
	}
	secs := time.Since(start).Seconds()
	rep := staticReport{Vertices: len(out.Mesh.Verts), Joints: out.Skeleton.Len(), Method: "refit", Weights: o.weights,
		Seconds: secs, WeightsSeconds: secs}
	if err := writeRigs(ctx, g, plan, []string{o.out}, []*rig.Rig{out}, opt, o.report, rep); err != nil {
		return err
	}
	printStaticReport(cmd.OutOrStdout(), rep)
	return printJSON(cmd.OutOrStdout(), o.report, rep)
}
