package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/registry"
	"github.com/meshrig/meshrig/method/skeletonshape"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

type skeletonizeOptions struct {
	out       string
	report    string
	method    string
	weights   string
	joints    int
	voxelSize float64
	detail    bool
	noSym     bool
	template  string
	maxInf    int
	collada   string
	truth     string
}

// staticReport is what skeletonize measures and writes with --report:
// the rig of one static mesh has no motion to compare against, so only
// its size, timing and — with a ground truth — joint error.
type staticReport struct {
	Mesh              string   `json:"mesh,omitempty"`
	Vertices          int      `json:"vertices"`
	Joints            int      `json:"joints"`
	Method            string   `json:"method"`
	Weights           string   `json:"weights"`
	Seconds           float64  `json:"seconds"`
	SkeletonSeconds   float64  `json:"skeleton_seconds"`
	WeightsSeconds    float64  `json:"weights_seconds"`
	JointErrorPercent *float64 `json:"joint_error_percent,omitempty"`
}

// staticMethods are the skeleton methods for one static mesh, default first.
var staticMethods = registry.StaticNames()

func newSkeletonize(g *globals) *cobra.Command {
	o := &skeletonizeOptions{}
	cmd := &cobra.Command{
		Use:   "skeletonize MESH -o OUT.glb|OUT.dae",
		Short: "Build a skeleton and skin weights for one static mesh",
		Long: `skeletonize finds a curve skeleton inside a single mesh (no animation needed),
binds the mesh to it with at most 4 weights per vertex, and writes the rigged
mesh, without motion, as glTF 2.0 (.glb) or Collada (.dae; --collada 1.5 adds
the kinematics model).

MESH is an OBJ or OFF file (optionally .gz), or a glTF file whose bind pose is
used. Methods: forcefield (repulsive force field, Liu et al. 2003; --voxel-size)
and contraction (Laplacian mesh contraction, Au et al. 2008). Both then shape
the skeleton: symmetric about the mesh's mirror plane when it has one (a note
gives the plane and its residual; --no-symmetry keeps it as found), rooted at
the torso, no joint with more than three children, detail branches (ears,
horns, bumps) folded into their parent unless --detail, and --joints joints
when asked. A skeleton with a biped or quadruped layout has its joints named
(hips, spine, chest, neck, head, thigh.L, …) and its root at the hips;
--template biped|quadruped asks for that layout, one joint per part fitted to
the skeleton found, and fails saying why when the mesh does not fit it.
Weights: heat (bone heat diffusion, the default), geodesic (inverse geodesic
distance to the 4 nearest joints), distance (Liu et al.'s formula over the 4
nearest joints) and rigid (the nearest bone's joint only).

With --truth (a libigl .tgf skeleton or a glTF rig) it prints joint error%:
the mean chamfer distance between the two joint sets, in % of the mesh's
bounding-box diagonal.`,
		Example: `  meshrig skeletonize armadillo.obj.gz -o armadillo.glb
  meshrig skeletonize elephant.obj.gz -o elephant.dae --collada 1.5 --method contraction --joints 20
  meshrig skeletonize wolf.obj.gz -o wolf.glb --truth wolf.tgf.gz --report wolf.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSkeletonize(cmd, g, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output rig: .glb or .gltf (glTF 2.0) or .dae (Collada) (required)")
	f.StringVar(&o.report, "report", "", "write the JSON report to this file (- for standard output)")
	f.StringVar(&o.method, "method", staticMethods[0], "skeleton method: "+methodList(registry.Statics()))
	f.StringVar(&o.weights, "weights", string(skinweights.Heat), "skin weights: heat, geodesic, distance or rigid")
	o.addShapeFlags(f, "")
	f.StringVar(&o.template, "template", "", "skeleton layout to fit: biped or quadruped (named joints, one per part; fails when the mesh does not fit)")
	f.IntVar(&o.maxInf, "max-influences", 4, "most joints per vertex (1–4)")
	f.StringVar(&o.collada, "collada", "", "Collada version for .dae output: 1.4.1 (default) or 1.5")
	f.StringVar(&o.truth, "truth", "", "ground-truth skeleton for joint error%: a libigl .tgf or a glTF rig")
	cmd.MarkFlagRequired("output")
	return cmd
}

func runSkeletonize(cmd *cobra.Command, g *globals, o *skeletonizeOptions, path string) error {
	ctx := cmd.Context()
	if err := o.check(); err != nil {
		return err
	}
	var plan safefile.Plan
	defer plan.Abort()
	plan.Read(path, o.truth)
	if err := firstErr(declareRig(&plan, "-o", o.out), declareReport(&plan, "--report", o.report)); err != nil {
		return err
	}
	m, err := readStaticMesh(path, &plan)
	if err != nil {
		return err
	}
	var truth []linalg.Vec3
	if o.truth != "" {
		if truth, err = truthJoints(o.truth, &plan); err != nil {
			return err
		}
	}
	if err := plan.Check(); err != nil {
		return err
	}
	r, rep, err := skeletonizeMesh(ctx, g, o, m, truth)
	if err != nil {
		return err
	}
	if err := writeRigs(ctx, g, &plan, []string{o.out}, []*rig.Rig{r}, format.WriteOptions{Version: o.collada}, o.report, rep); err != nil {
		return err
	}
	printStaticReport(cmd.OutOrStdout(), rep)
	return printJSON(cmd.OutOrStdout(), o.report, rep)
}

// maxJoints bounds --joints; the contraction method also refuses more
// joints than its mesh graph can carry.
const maxJoints = 4096

// addShapeFlags adds the skeleton methods' own flags, which skeletonize
// and bench --static share; prefix says when they apply.
func (o *skeletonizeOptions) addShapeFlags(f *pflag.FlagSet, prefix string) {
	f.IntVar(&o.joints, "joints", 0, prefix+fmt.Sprintf("joints to keep, 2 to %d (default: contraction 24, forcefield as the shape gives; within one on a symmetric skeleton)", maxJoints))
	f.BoolVar(&o.detail, "detail", false, prefix+"keep detail branches (ears, horns, bumps) instead of folding them into their parent")
	f.BoolVar(&o.noSym, "no-symmetry", false, prefix+"keep the skeleton as found on a mirror-symmetric mesh")
	f.Float64Var(&o.voxelSize, "voxel-size", 0, prefix+"forcefield: voxel edge as a fraction of the longest bounding-box side, 1/256 to 1/8 (default 1/64)")
}

func (o *skeletonizeOptions) check() error {
	if _, err := skinweights.ParseScheme(o.weights); err != nil {
		return fmt.Errorf("--weights: %w", err)
	}
	e, err := registry.Static(o.method)
	if err != nil {
		return fmt.Errorf("--method %q: unknown (available: %s)", o.method, strings.Join(staticMethods, ", "))
	}
	o.method = e.Name
	switch o.template {
	case "", skeletonshape.Biped, skeletonshape.Quadruped:
	default:
		return fmt.Errorf("--template %q: want %s or %s", o.template, skeletonshape.Biped, skeletonshape.Quadruped)
	}
	if o.template != "" && o.joints != 0 {
		return fmt.Errorf("--template sets the joints (one per part); --joints does not apply")
	}
	if o.template != "" && o.noSym {
		return fmt.Errorf("--template fits a layout to the symmetric skeleton; --no-symmetry does not apply")
	}
	if o.collada != "" && o.collada != "1.4.1" && o.collada != "1.5" {
		return fmt.Errorf("--collada %q: want 1.4.1 or 1.5", o.collada)
	}
	return firstErr(
		intIn("--max-influences", o.maxInf, 1, 4),
		intOrZero("--joints", o.joints, 2, maxJoints),
		floatOrZero("--voxel-size", o.voxelSize, 1.0/256, 1.0/8),
	)
}

// readStaticMesh reads a mesh file, or the bind pose of a scene (glTF),
// recording side files on plan when it is not nil.
func readStaticMesh(path string, plan *safefile.Plan) (*mesh.Mesh, error) {
	f, _, err := format.ByPath(path)
	if err != nil {
		return nil, err
	}
	if f.Mesh != nil {
		// As a rest mesh: OBJ brings its material library and textures.
		m, side, err := format.ReadRestMesh(path)
		if err == nil && plan != nil {
			plan.Read(side...)
		}
		return m, err
	}
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		return nil, err
	}
	if plan != nil {
		plan.Read(sc.Files...)
	}
	if sc.Mesh == nil {
		return nil, fmt.Errorf("%s holds no mesh", path)
	}
	return sc.Mesh, nil
}

// skeletonizeMesh runs the skeleton method with a progress bar, binds the
// mesh with the chosen weights and measures the result (joint error when
// truth is given).
func skeletonizeMesh(ctx context.Context, g *globals, o *skeletonizeOptions, m *mesh.Mesh, truth []linalg.Vec3) (*rig.Rig, staticReport, error) {
	scheme, err := skinweights.ParseScheme(o.weights)
	if err != nil {
		return nil, staticReport{}, fmt.Errorf("--weights: %w", err)
	}
	progress, finish := g.progress("skeleton")
	notes := func(msg string) { g.logf("note: %s", msg) }
	start := time.Now()
	s, name, err := staticSkeleton(ctx, o, m, progress, notes)
	finish(err)
	if err != nil {
		return nil, staticReport{}, err
	}
	mid := time.Now()
	skin, err := skinweights.Compute(m, s, scheme, skinweights.Options{MaxInfluences: o.maxInf})
	if err != nil {
		return nil, staticReport{}, err
	}
	r, err := s.Rig(m, skin)
	if err != nil {
		return nil, staticReport{}, fmt.Errorf("%s skeleton: %w", name, err)
	}
	end := time.Now()
	rep := staticReport{
		Vertices: len(m.Verts), Joints: r.Skeleton.Len(), Method: name, Weights: string(scheme),
		Seconds: end.Sub(start).Seconds(), SkeletonSeconds: mid.Sub(start).Seconds(), WeightsSeconds: end.Sub(mid).Seconds(),
	}
	if truth != nil {
		je := metric.JointError(metric.Heads(&r.Skeleton), truth, mesh.Diagonal(m.Verts))
		rep.JointErrorPercent = &je
	}
	return r, rep, nil
}

// staticSkeleton runs the chosen skeleton method.
func staticSkeleton(ctx context.Context, o *skeletonizeOptions, m *mesh.Mesh, progress method.Progress, notes method.Notes) (*static.Skeleton, string, error) {
	e, err := registry.Static(o.method)
	if err != nil {
		return nil, "", fmt.Errorf("--method %q: unknown (available: %s)", o.method, strings.Join(staticMethods, ", "))
	}
	s, err := e.Skeleton(ctx, m, registry.Options{VoxelSize: o.voxelSize, Joints: o.joints, Detail: o.detail, NoSymmetry: o.noSym,
		Progress: progress, Notes: notes})
	if err != nil || o.template == "" {
		return s, e.Name, err
	}
	if s, err = skeletonshape.Template(m, s, o.template, linalg.Vec3{}); err != nil {
		return nil, e.Name, fmt.Errorf("--template: %w", err)
	}
	return s, e.Name, nil
}

// printStaticReport writes the human-readable summary of a static rig.
func printStaticReport(w io.Writer, r staticReport) {
	fmt.Fprintf(w, "method        %s\n", r.Method)
	fmt.Fprintf(w, "weights       %s\n", r.Weights)
	fmt.Fprintf(w, "vertices      %d\n", r.Vertices)
	fmt.Fprintf(w, "joints        %d\n", r.Joints)
	fmt.Fprintf(w, "seconds       %.2f (skeleton %.2f, weights %.2f)\n", r.Seconds, r.SkeletonSeconds, r.WeightsSeconds)
	if r.JointErrorPercent != nil {
		fmt.Fprintf(w, "joint error%%  %.4f\n", *r.JointErrorPercent)
	}
}
