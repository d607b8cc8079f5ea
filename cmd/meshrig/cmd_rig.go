package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/ledeng"
	"github.com/meshrig/meshrig/method/registry"
	"github.com/meshrig/meshrig/method/stretch"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

type rigOptions struct {
	out        string
	report     string
	method     string
	bones      int
	bonesGiven func() bool // whether --bones was on the command line
	initBones  int
	fast       bool
	search     string
	searchKind ledeng.Search // search and fast read by check
	iterations int
	maxInf     int
	seed       uint64
	skeleton   string
	collada    string
	tolerance  float64
	lloyd      int
	areaVotes  bool
	splitClips bool
	stretch    bool
	load       loadFlags
	given      givenFlags // rig only: --skeleton FILE, --rig, --helpers, --mask
}

func newRig(g *globals) *cobra.Command {
	o := &rigOptions{}
	cmd := &cobra.Command{
		Use:   "rig INPUT... -o OUT.glb|OUT.dae",
		Short: "Extract a skeletal rig (skeleton, weights, motion) from a mesh animation",
		Long: `rig finds a skeleton, linear-blend-skinning weights (at most 4 per vertex) and
per-frame joint rotations plus root translation that reproduce a mesh
animation, writes them as glTF 2.0 (.glb) or Collada (.dae), and prints the
reconstruction error of the rig as written.

INPUT is a folder of frames (OBJ, natural order; rest.obj or reference.obj is
the rest pose), a glob, a list of frame files, a point cache (.pc2/.mdd) with
its rest mesh, or a glTF animation. Several folders are several clips of one
character: they share the rest pose (--rest), one skeleton and one set of
weights, and the output has one animation per clip.

Methods: ledeng (Le & Deng 2014, the default) and face-clustering (Schaefer &
Yuksel 2007: fast, rigid face clusters, --bones or --tolerance) and spectral
(de Aguiar et al. 2008: spectral segmentation, bone heat weights).`,
		Example: `  meshrig rig horse-gallop/ -o horse.glb
  meshrig rig walk/ run/ jump/ --rest rest.obj -o hero.glb --report hero.json
  meshrig rig cloth/ --skeleton none -o cloth.glb     # free bones, lowest error`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRig(cmd, g, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output rig: .glb or .gltf (glTF 2.0) or .dae (Collada) (required)")
	f.StringVar(&o.report, "report", "", "write the JSON report to this file (- for standard output)")
	f.StringVar(&o.collada, "collada", "", "Collada version for .dae output (default 1.4.1)")
	f.BoolVar(&o.splitClips, "split-clips", false, "write one file per clip, OUT-CLIP.ext, each with the same skeleton and weights (Blender's Collada importer merges a file's clips into one action)")
	f.BoolVar(&o.stretch, "stretch", false, "add squash and stretch: a scale per joint, frame and axis (glTF scale channels, COLLADA joint matrices, FBX Lcl Scaling, USD scales), rotations fitted again around it")
	o.addFlags(f)
	o.given.add(f)
	f.Lookup("skeleton").Usage = "tree (a joint hierarchy), none (free bones, no joints), or a skeleton FILE (glTF, Collada, FBX, libigl .tgf) whose joints are kept: weights and motion are solved for it"
	o.load.add(cmd)
	cmd.MarkFlagRequired("output")
	return cmd
}

// clipFiles names one output per clip: out's name, a dash and the clip's
// name made safe for a file name, then out's extension (hero.dae →
// hero-walk.dae); names that would repeat take a number.
func clipFiles(out string, clips []seq.Clip) []string {
	ext := filepath.Ext(out)
	base := strings.TrimSuffix(out, ext)
	seen := map[string]bool{}
	var names []string
	for k, c := range clips {
		clean := strings.Map(func(r rune) rune {
			if r == '/' || r == '\\' || r == 0 || r < ' ' || strings.ContainsRune(`:*?"<>|`, r) {
				return '_'
			}
			return r
		}, c.Name)
		if clean == "" || clean == "." || clean == ".." {
			clean = fmt.Sprintf("clip%d", k+1)
		}
		name := base + "-" + clean + ext
		for i := 2; seen[name]; i++ {
			name = fmt.Sprintf("%s-%s_%d%s", base, clean, i, ext)
		}
		seen[name] = true
		names = append(names, name)
	}
	return names
}

// addFlags adds the method flags that rig and bench share.
func (o *rigOptions) addFlags(f *pflag.FlagSet) {
	f.StringVar(&o.method, "method", registry.AnimationNames()[0], "rigging method: "+methodList(registry.Animations()))
	f.Float64Var(&o.tolerance, "tolerance", 0, "face-clustering: stop merging above this RMS fit error, % of the diagonal (default 0.6; ignored with --bones)")
	f.IntVar(&o.lloyd, "lloyd", 0, "face-clustering: Lloyd refinement passes (0 to 100)")
	f.BoolVar(&o.areaVotes, "area-weighted", false, "face-clustering: weigh skeleton connectivity votes by vertex area")
	f.IntVar(&o.bones, "bones", 0, fmt.Sprintf("this many bones, 1 to %d (ledeng: fewer only when the motion has fewer moving parts; spectral: at most; default: as many as the motion needs)", maxBones))
	o.bonesGiven = func() bool { return f.Changed("bones") }
	f.IntVar(&o.initBones, "init-bones", 0, fmt.Sprintf("over-estimated bone count of the initialization, 2 to %d (default 32, or 1.25×--bones; the automatic count starts again from twice as many, up to 4×, when its error level stops the pruning with 3/4 of them kept)", maxBones))
	f.StringVar(&o.search, "search", "auto", "ledeng: where the skeleton is found: coarse (the mesh coarsened up to 3 times, then every vertex fitted: 2–4× faster), full (every vertex: usually the lowest error at a given --bones, in 2–3× the time) or auto (coarse with --bones, full for the automatic count)")
	f.BoolVar(&o.fast, "fast", false, "ledeng: --search coarse, also for the automatic count (from 64 clusters); with --stretch (any method), the weights kept and fewer steps per frame (about half the time, a little more error)")
	f.IntVar(&o.iterations, "iterations", 20, "rigging iterations, 1 to 1000")
	f.IntVar(&o.maxInf, "max-influences", 4, "most joints per vertex (1–4)")
	f.Uint64Var(&o.seed, "seed", 1, "seed for any randomized step")
	f.StringVar(&o.skeleton, "skeleton", "tree", "tree (a joint hierarchy) or none (free bones, no joints)")
}

// bonesFlag checks --bones: 1 to maxBones when given (0 is refused, not
// read as the automatic count, which is what leaving the flag out gives).
func bonesFlag(given func() bool, v int) error {
	if (given != nil && given() && v == 0) || v < 0 || v > maxBones {
		return fmt.Errorf("--bones %d: want 1 to %d (leave --bones out for the automatic count)", v, maxBones)
	}
	return nil
}

// maxBones bounds --bones and --init-bones: far past any character's
// skeleton, and the methods' costs grow with its square.
const maxBones = 4096

// check refuses bad method flags before any input is read, and settles
// --method on its one name.
func (o *rigOptions) check() error {
	e, err := registry.Animation(o.method)
	if err != nil {
		return fmt.Errorf("--method %q: unknown (available: %s)", o.method, strings.Join(registry.AnimationNames(), ", "))
	}
	o.method = e.Name
	// A skeleton FILE is for rig alone, which registers --solve (bench does not).
	if o.skeleton != "tree" && o.skeleton != "none" && o.given.solve == "" {
		return fmt.Errorf("--skeleton %q: want tree or none", o.skeleton)
	}
	if o.skeleton == "none" && !e.Free {
		var free []string
		for _, f := range registry.Animations() {
			if f.Free {
				free = append(free, f.Name)
			}
		}
		return fmt.Errorf("--method %s always builds a skeleton (--skeleton none is for %s)", e.Name, strings.Join(free, " and "))
	}
	if o.searchKind, err = ledeng.ParseSearch(o.search); err != nil {
		return fmt.Errorf("--search %q: want auto, coarse or full", o.search)
	}
	if o.fast {
		if o.searchKind == ledeng.SearchFull {
			return fmt.Errorf("--fast is --search coarse: not with --search full")
		}
		o.searchKind = ledeng.SearchCoarse
	}
	if o.collada != "" && o.collada != "1.4.1" && o.collada != "1.5" {
		return fmt.Errorf("--collada %q: want 1.4.1 or 1.5", o.collada)
	}
	return firstErr(
		intIn("--max-influences", o.maxInf, 1, 4),
		bonesFlag(o.bonesGiven, o.bones),
		intOrZero("--init-bones", o.initBones, 2, maxBones),
		intIn("--iterations", o.iterations, 1, 1000),
		intIn("--lloyd", o.lloyd, 0, 100),
		floatOrZero("--tolerance", o.tolerance, 1e-6, 100),
	)
}

func runRig(cmd *cobra.Command, g *globals, o *rigOptions, args []string) error {
	ctx := cmd.Context()
	if err := firstErr(o.check(), o.checkGiven(), o.load.check()); err != nil {
		return err
	}
	var plan safefile.Plan
	defer plan.Abort()
	plan.Read(args...)
	plan.Read(o.load.restFile(), o.skeletonFile(), o.given.rig)
	if o.splitClips {
		var probe safefile.Plan // -o names the files; its folder and format are checked now
		if err := declareRig(&probe, "-o", o.out); err != nil {
			return err
		}
	} else if err := declareRig(&plan, "-o", o.out); err != nil {
		return err
	}
	if err := declareReport(&plan, "--report", o.report); err != nil {
		return err
	}
	in, err := o.load.load(ctx, g, args)
	if err != nil {
		return err
	}
	plan.Read(in.Files...)
	outs := []string{o.out}
	if o.splitClips {
		outs = clipFiles(o.out, in.Sequence.Clips)
		for _, p := range outs {
			if err := declareRig(&plan, "--split-clips", p); err != nil {
				return err
			}
		}
	}
	if err := plan.Check(); err != nil {
		return err
	}
	start := time.Now()
	var r *rig.Rig
	var name string
	if o.givenActive() {
		r, name, err = rigGiven(ctx, g, o, &plan, in.Sequence)
	} else {
		r, name, err = rigWith(ctx, g, o, in.Sequence)
	}
	if err == nil && o.stretch {
		r, err = stretch.Fit(ctx, r, in.Sequence, o.stretchOptions(g))
	}
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return err
	}
	rep, err := metric.Compare(in.Sequence, r)
	if err != nil {
		return err
	}
	rep.Method, rep.Seconds = name, secs
	if in.Truth != nil {
		je := metric.JointError(metric.Heads(&r.Skeleton), metric.DeformingHeads(in.Truth), rep.Diagonal)
		rep.JointErrorPercent = &je
	}
	rigs := []*rig.Rig{r}
	if o.splitClips {
		rigs = r.SplitClips()
	}
	if err := writeRigs(ctx, g, &plan, outs, rigs, format.WriteOptions{Version: o.collada}, o.report, rep); err != nil {
		return err
	}
	printReport(cmd.OutOrStdout(), rep)
	return printJSON(cmd.OutOrStdout(), o.report, rep)
}

// rigWith runs the chosen method with a progress bar and prints its notes.
func rigWith(ctx context.Context, g *globals, o *rigOptions, s *seq.Sequence) (*rig.Rig, string, error) {
	progress, finish := g.progress("rigging")
	r, name, err := runMethod(ctx, g, o, s, progress)
	finish(err)
	return r, name, err
}

// runMethod runs the chosen method, reporting to progress.
func runMethod(ctx context.Context, g *globals, o *rigOptions, s *seq.Sequence, progress method.Progress) (*rig.Rig, string, error) {
	e, err := registry.Animation(o.method)
	if err != nil {
		return nil, "", fmt.Errorf("--method %q: unknown (available: %s)", o.method, strings.Join(registry.AnimationNames(), ", "))
	}
	r, err := e.Rig(ctx, s, o.registryOptions(g, progress))
	return r, e.Name, err
}

// stretchOptions maps --stretch and --fast to stretch's options: with
// --fast the weights are kept and a frame's steps end at a 1% gain (the
// cow at 11 bones: RMSE% 0.896 in a sixth of the fit's time, against
// 0.819).
func (o *rigOptions) stretchOptions(g *globals) stretch.Options {
	so := stretch.Options{MaxInfluences: o.maxInf, Progress: func(_ string, done, total int) { g.logf("stretch: round %d of %d", done, total) }}
	if o.fast {
		so.WeightRounds, so.Tolerance = -1, 1e-2
	}
	return so
}

// registryOptions maps the method flags to the registry's options.
func (o *rigOptions) registryOptions(g *globals, progress method.Progress) registry.Options {
	return registry.Options{
		Bones:         o.bones,
		InitBones:     o.initBones,
		Search:        o.searchKind,
		Iterations:    o.iterations,
		MaxInfluences: o.maxInf,
		Free:          o.skeleton == "none",
		Refitted:      o.stretch, // stretch.Fit fits every frame again
		Seed:          o.seed,
		Tolerance:     o.tolerance,
		Lloyd:         o.lloyd,
		AreaWeighted:  o.areaVotes,
		Progress:      progress,
		Notes:         func(msg string) { g.logf("note: %s", msg) },
	}
}

// methodList names the methods with their papers for flag help:
// "a (P1), b (P2) or c (P3)".
func methodList(es []*registry.Entry) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, fmt.Sprintf("%s (%s)", e.Name, e.Paper))
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
