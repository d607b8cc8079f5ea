package refit

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// finalSweeps bounds the rotation sweeps of the last fit, after the last
// weight solve (as method/ledeng's last fit).
const finalSweeps = 30

// Animation fits r, whose skeleton is held fixed, to the animation s: skin
// weights and, per frame, joint rotations and the root translation (what
// o.Solve asks for; the rest is kept from r). s must have r.Mesh's vertex
// count; its frames are taken against r.Mesh as the rest pose, and the
// result has one clip per clip of s (with o.Solve == Weights: r's clips,
// which must then cover s's frames).
//
// The result keeps r's joints — names, order, parents and heads, bit for
// bit unless o.RefineJoints — and shares r's mesh; r is not modified. Work happens in unit-sphere
// coordinates (method.UnitSphere) on the model of method/skinning. Start:
// r's skin when it fits the mesh, else each vertex on the joint of its
// nearest bone; r's clips when they have s's frame count or rigid fits of
// each joint's vertices, whichever reproduces s better. Then rounds of
// exact hierarchical rotation fits (skinning.FitRotations: the root also
// translates) and per-vertex weight solves, until a round gains less than
// o.Tolerance; no step raises the fit's error, so an unedited rig comes
// back no worse than it went in.
//
// It fails on a rig without mesh or with an invalid skeleton, on a vertex
// count that differs from s's, and when ctx is done.
func Animation(ctx context.Context, r *rig.Rig, s *seq.Sequence, o Options) (*rig.Rig, Report, error) {
	o = o.withDefaults()
	if err := checkInputs(r, s); err != nil {
		return nil, Report{}, err
	}
	keep, err := maskKeeps(r, o)
	if err != nil {
		return nil, Report{}, err
	}
	if o.Helpers > 0 || o.Lock != nil {
		return addHelpers(ctx, r, s, o, keep)
	}
	var rep Report
	us := method.NewUnitSphere(r.Mesh.Verts)
	nj := r.Skeleton.Len()
	p := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, r.Mesh.Verts), Frames: us.ToFrames(nil, s.Frames), B: nj}
	heads := us.To(nil, metricHeads(&r.Skeleton))
	near := nearestBones(p.Rest, &r.Skeleton, heads, nil, 0)

	// Start: weights.
	switch {
	case skinFits(r):
		p.WB, p.WW = slots(r.Skin)
		rep.WeightsFrom = "skin"
	case o.Solve == Motion:
		return nil, Report{}, fmt.Errorf("refit: the rig's skin does not fit its mesh, and only the motion was to be solved")
	default:
		label := make([]int32, p.N)
		for i := range label {
			label[i] = near[i][0]
		}
		p.SetRigidWeights(label)
		rep.WeightsFrom = "proximity"
	}
	// Placement joints (weightless, one child, from joint 0 down, as
	// Fox.glb's) stay where the start puts them; the fit hangs from the
	// body root below them, whose translation is free.
	body, still := bodyRoot(&r.Skeleton, p.WB)
	if body > 0 {
		near = nearestBones(p.Rest, &r.Skeleton, heads, still, int32(body))
		o.Notes.Add(fmt.Sprintf("refit: %d placement joints above %s keep their motion; %s's translation is fitted", body, r.Skeleton.Joints[body].Name, r.Skeleton.Joints[body].Name))
	}
	h := hierarchy(&r.Skeleton, heads, body)

	// Start: motion.
	fromClips := clipTransforms(r, s.F(), us)
	var e0 float64
	if o.Solve == Weights {
		if fromClips == nil {
			return nil, Report{}, fmt.Errorf("refit: the rig's clips do not have the animation's %d frames, so its motion cannot be kept", s.F())
		}
		p.M = fromClips
		rep.MotionFrom = "clips"
		e0 = p.SSE()
	} else {
		p.M = rigidFits(p, h)
		p.Constrain(h)
		rep.MotionFrom = "rigid fits"
		e0 = p.SSE()
		if fromClips != nil {
			rigid := p.M
			p.M = fromClips
			p.Constrain(h)
			if e := p.SSE(); e <= e0 {
				rep.MotionFrom, e0 = "clips", e
			} else {
				p.M = rigid
			}
		}
	}
	diag := mesh.Diagonal(p.Rest)
	percent := func(e float64) float64 { return 100 * math.Sqrt(e/float64(p.N*p.F)) / diag }
	rep.StartRMSEPercent = percent(e0)

	ws := &weightSolver{p: p, k: o.MaxInfluences, near: near, keep: keep}
	if o.Solve != Motion {
		ws.ring = seamRing(p, r.Mesh.Tris)
	}
	prev := -1.0
	for it := 0; it < o.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			return nil, Report{}, err
		}
		var e float64
		if o.Solve != Weights {
			e = p.FitRotations(h, skinning.FitSweeps)
			if o.RefineJoints {
				p.FitJoints(&h)
			}
		}
		if o.Solve != Motion {
			ws.update()
		}
		if o.Solve == Weights {
			e = p.SSE()
		}
		rep.Rounds = it + 1
		o.Progress.Report("refit", it+1, o.Iterations)
		if o.Tolerance > 0 && prev >= 0 && prev-e < o.Tolerance*prev {
			break
		}
		prev = e
	}
	if err := ctx.Err(); err != nil {
		return nil, Report{}, err
	}
	// The last fit sees the last weights; its error is the result's.
	if o.Solve != Weights {
		rep.RMSEPercent = percent(p.FitRotations(h, finalSweeps))
	} else {
		rep.RMSEPercent = percent(p.SSE())
	}
	out := export(r, s, p, h, us, o, fromClips != nil && rep.MotionFrom == "clips")
	for i, k := range keep {
		if k {
			out.Skin[i] = r.Skin[i]
		}
	}
	return out, rep, out.Validate()
}

// checkInputs refuses what Animation cannot fit.
func checkInputs(r *rig.Rig, s *seq.Sequence) error {
	if r == nil || r.Mesh == nil {
		return fmt.Errorf("refit: the rig has no mesh")
	}
	if err := r.Skeleton.Validate(); err != nil {
		return fmt.Errorf("refit: %w", err)
	}
	if s == nil {
		return fmt.Errorf("refit: no animation")
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("refit: %w", err)
	}
	if len(r.Mesh.Verts) != s.N() {
		return fmt.Errorf("refit: the rig has %d vertices, the animation %d", len(r.Mesh.Verts), s.N())
	}
	if s.F() == 0 {
		return fmt.Errorf("refit: the animation has no frames")
	}
	return nil
}

// maskKeeps turns o.Mask into the vertices whose weights are kept (nil
// without a mask), refusing a mask that cannot apply.
func maskKeeps(r *rig.Rig, o Options) ([]bool, error) {
	if o.Mask == nil {
		return nil, nil
	}
	if len(o.Mask) != len(r.Mesh.Verts) {
		return nil, fmt.Errorf("refit: the mask has %d values, the mesh %d vertices", len(o.Mask), len(r.Mesh.Verts))
	}
	if o.Solve == Motion {
		return nil, fmt.Errorf("refit: a mask says which weights to solve, and only the motion was to be solved")
	}
	if !skinFits(r) {
		return nil, fmt.Errorf("refit: a mask keeps the rig's weights where it is 0, but the rig has no skin that fits its mesh")
	}
	keep := make([]bool, len(o.Mask))
	for i, v := range o.Mask {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("refit: mask value %d is %v", i, v)
		}
		keep[i] = v == 0
	}
	return keep, nil
}
