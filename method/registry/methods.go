package registry

import (
	"context"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/aguiar"
	"github.com/meshrig/meshrig/method/contraction"
	"github.com/meshrig/meshrig/method/forcefield"
	"github.com/meshrig/meshrig/method/ledeng"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/method/schaefer"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/method/stretch"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// animation lists the mesh-animation methods, the default first.
var animation = []*Entry{
	{
		Name: ledeng.Name, Aliases: []string{"le-deng", "le-deng-2014"},
		Paper:       "Le & Deng 2014",
		Title:       "Robust and accurate skeletal rigging from mesh sequences",
		Description: "clusters, skinning decomposition and iterative rigging with pruning: the lowest error (default)",
		Params: []Param{{"Bones", "0 (as many as the motion needs)"}, {"InitBones", "32, or 1.25·Bones"}, {"Search", "auto (coarse with Bones)"}, {"Iterations", "20"},
			{"MaxInfluences", "4"}, {"Free", "false"}, {"Refitted", "false"}, {"Seed", "1"}},
		Free: true,
		Rig: func(ctx context.Context, s *seq.Sequence, o Options) (*rig.Rig, error) {
			return ledeng.Rig(ctx, s, ledeng.Options{
				InitBones: o.InitBones, Bones: o.Bones, Search: o.Search, Iterations: o.Iterations, MaxInfluences: o.MaxInfluences,
				Free: o.Free, Refitted: o.Refitted, Seed: o.Seed, Progress: o.Progress, Notes: o.Notes,
			})
		},
		Refit: refitAnimation,
	},
	{
		Name: schaefer.Name, Aliases: []string{"schaefer", "schaefer-yuksel-2007"},
		Paper:       "Schaefer & Yuksel 2007",
		Title:       "Example-based skeleton extraction",
		Description: "greedy rigid face clustering: fast, bones by --bones or --tolerance",
		Params: []Param{{"Bones", "0 (stop by Tolerance)"}, {"Tolerance", "0.6"}, {"Lloyd", "0"}, {"AreaWeighted", "false"},
			{"MaxInfluences", "4"}, {"Free", "false"}},
		Free: true,
		Rig: func(ctx context.Context, s *seq.Sequence, o Options) (*rig.Rig, error) {
			return schaefer.Rig(ctx, s, schaefer.Options{
				Bones: o.Bones, Tolerance: o.Tolerance, Lloyd: o.Lloyd, AreaWeighted: o.AreaWeighted,
				MaxInfluences: o.MaxInfluences, Free: o.Free, Progress: o.Progress, Notes: o.Notes,
			})
		},
		Refit: refitAnimation,
	},
	{
		Name: aguiar.Name, Aliases: []string{"aguiar", "de-aguiar-2008"},
		Paper:       "de Aguiar et al. 2008",
		Title:       "Automatic conversion of mesh animations into skeleton-based animations",
		Description: "spectral segmentation into rigid patches, bone heat weights",
		Params:      []Param{{"Bones", "48"}, {"MaxInfluences", "4"}, {"Seed", "1"}},
		Rig: func(ctx context.Context, s *seq.Sequence, o Options) (*rig.Rig, error) {
			return aguiar.Rig(ctx, s, aguiar.Options{
				MaxBones: o.Bones, MaxInfluences: o.MaxInfluences, Seed: o.Seed, Progress: o.Progress, Notes: o.Notes,
			})
		},
		Refit: refitAnimation,
	},
}

// statics lists the static-mesh methods, the default first.
var statics = []*Entry{
	{
		Name: "forcefield", Aliases: []string{"force-field", "liu-2003"},
		Paper:       "Liu et al. 2003",
		Title:       "Automatic animation skeleton construction using repulsive force field",
		Description: "repulsive force field in a voxel grid, minima joined by thinning (default)",
		Params: []Param{{"VoxelSize", "1/64"}, {"Joints", "0 (as the shape gives)"}, {"Detail", "false"}, {"NoSymmetry", "false"},
			{"Weights", "heat"}, {"MaxInfluences", "4"}},
		Skeleton: func(ctx context.Context, m *mesh.Mesh, o Options) (*static.Skeleton, error) {
			return forcefield.Skeleton(ctx, m, forcefield.Options{VoxelSize: o.VoxelSize, Joints: o.Joints, Detail: o.Detail,
				NoSymmetry: o.NoSymmetry, Progress: o.Progress, Notes: o.Notes})
		},
		Refit: refitStatic,
	},
	{
		Name: "contraction", Aliases: []string{"laplacian-contraction", "au-2008"},
		Paper:       "Au et al. 2008",
		Title:       "Skeleton extraction by mesh contraction",
		Description: "Laplacian mesh contraction, connectivity surgery and thinning to --joints",
		Params:      []Param{{"Joints", "24"}, {"Detail", "false"}, {"NoSymmetry", "false"}, {"Weights", "heat"}, {"MaxInfluences", "4"}},
		Skeleton: func(ctx context.Context, m *mesh.Mesh, o Options) (*static.Skeleton, error) {
			return contraction.Skeleton(ctx, m, contraction.Options{Joints: o.Joints, Detail: o.Detail, NoSymmetry: o.NoSymmetry,
				Progress: o.Progress, Notes: o.Notes})
		},
		Refit: refitStatic,
	},
}

// refitAnimation is every animation entry's Refit.
func refitAnimation(ctx context.Context, r *rig.Rig, s *seq.Sequence, o Options) (*rig.Rig, refit.Report, error) {
	return RefitAnimation(ctx, r, s, o.refitOptions())
}

// RefitAnimation is refit.Animation, and for a rig whose joints scale
// (rig --stretch) the scale tracks fitted again around its result
// (stretch.Fit), never worse than the rig as given when that was its
// starting point. Every command and the viewer's re-solve refit through
// it.
func RefitAnimation(ctx context.Context, r *rig.Rig, s *seq.Sequence, o refit.Options) (*rig.Rig, refit.Report, error) {
	out, rep, err := refit.Animation(ctx, r, s, o)
	if err != nil || !r.HasScale() || o.Solve == refit.Weights {
		return out, rep, err
	}
	// The rig squashes and stretches (rig --stretch) and its motion was
	// fitted again as rotations: the scale tracks are fitted again around
	// it, as rig --stretch does (the weights kept with Solve Motion).
	// Without this an unedited cow at 11 bones came back at RMSE% 1.40
	// from 0.83.
	// The weights stay refit's when they must: with Solve Motion, and
	// with a Mask (its vertices keep theirs). MaxInfluences out of range
	// is refit's default, 4.
	so := stretch.Options{Progress: o.Progress}
	if o.MaxInfluences >= 1 && o.MaxInfluences <= rig.MaxInfluences {
		so.MaxInfluences = o.MaxInfluences
	}
	if o.Solve == refit.Motion || o.Mask != nil {
		so.WeightRounds = -1
	}
	if out, err = stretch.Fit(ctx, out, s, so); err != nil {
		return nil, rep, err
	}
	m, err := metric.Compare(s, out)
	if err != nil {
		return nil, rep, err
	}
	rep.RMSEPercent = m.RMSEPercent
	if rep.WeightsFrom == "skin" && rep.MotionFrom == "clips" && rep.StartRMSEPercent < rep.RMSEPercent {
		// The rig as given fits better: refit returns nothing worse.
		rep.RMSEPercent = rep.StartRMSEPercent
		return copyRig(r), rep, nil
	}
	return out, rep, nil
}

func refitStatic(ctx context.Context, r *rig.Rig, _ *seq.Sequence, o Options) (*rig.Rig, refit.Report, error) {
	out, err := refit.Static(ctx, r, o.Weights, o.refitOptions())
	return out, refit.Report{}, err
}

// copyRig returns r with its own skeleton, skin and clips (the mesh is
// shared: nothing edits one in place), so a caller may change the result
// as refit.Animation's.
func copyRig(r *rig.Rig) *rig.Rig {
	c := *r
	c.Skeleton.Joints = append([]rig.Joint(nil), r.Skeleton.Joints...)
	c.Skin = append(rig.Skin(nil), r.Skin...)
	c.Clips = make([]rig.Clip, len(r.Clips))
	for k, cl := range r.Clips {
		cl.Rotation = append([]linalg.Quat(nil), cl.Rotation...)
		cl.Translation = append([]linalg.Vec3(nil), cl.Translation...)
		if cl.Scale != nil {
			cl.Scale = append([]linalg.Vec3(nil), cl.Scale...)
		}
		c.Clips[k] = cl
	}
	return &c
}
