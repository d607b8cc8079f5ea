package stretch

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Options tune Fit; the zero value is the documented default.
type Options struct {
	// Rounds is the number of sweeps over the joints per frame (0: 1).
	// Each sweep fits every joint's rotation and scale in turn.
	Rounds int
	// Uniform fits one scale per joint and frame instead of one per local
	// axis, by the joint sweeps alone (fewer channels, weaker: the cow at
	// 11 bones 1.42 RMSE% against the rigid 1.52, per axis 0.78 — that
	// one measured before the per-axis steps' normal equations were
	// complete; see polish).
	Uniform bool
	// WeightRounds is how many times the weights are solved again for the
	// scaled motion, each followed by Rounds sweeps (0: 2; -1: never,
	// the rig's skin kept).
	WeightRounds int
	// MaxInfluences is the most joints a refitted vertex may have (0: 4).
	MaxInfluences int
	// Tolerance ends a frame's Levenberg–Marquardt steps once one lowers
	// its error by less than this fraction (0: 1e-4). meshrig rig --fast
	// --stretch takes 1e-2 and no weight rounds: the cow at 11 bones
	// RMSE% 0.896 in a sixth of the fit's time, against 0.819.
	Tolerance float64
	// Progress reports the rounds done; it may be nil.
	Progress method.Progress
}

// Scales are kept within [minScale, 1/minScale]: a joint with almost no
// weighted vertices along an axis (a flat or thin lever) keeps a usable
// inverse for its children and a valid glTF scale.
const minScale = 1e-2

// Fit returns a copy of r whose clips carry a scale per joint, frame and
// local axis (rig.Clip.Scale; the same on all three with
// Options.Uniform), with rotations and the root translation fitted again;
// skeleton, skin, mesh and the other joints' translations are r's. The
// clips of r, played one after another, must cover the frames of s, and
// r's mesh must have s's vertices.
//
// The scale is glTF's: local = T·R·S, inherited by the children, so FK
// (rig.Skeleton.Pose) replays exactly what a glTF viewer plays. Per axis
// rather than uniform because a uniform scale only moves a child's head
// along its offset, while squash and stretch of a limb is along some
// axes and not others; the axes are the joint's local ones, the model's
// axes at rest since a rig's joints carry no rest orientation.
//
// Per frame, each joint in hierarchy order is a block of a coordinate
// descent on the LBS error Σ_i ‖Σ_k w_ik M_k r_i − y_i‖². With the other
// joints' contributions fixed, joint j must map its levers
// a_i = w_ij (r_i − head_j) onto the residuals
// z_i = y_i − Σ_{k≠j} w_ik M_k r_i − w_ij h_j (h_j its posed head, set by
// its parent; the root's is fitted too, centred with the weights w_ij):
// minimise Σ‖A·R·S·a_i − z_i‖² over the local rotation R and diagonal S,
// A the parent's global linear part. Alternating: S by its 3×3 normal
// equations (linear in S), R by Horn's absolute orientation of S·a_i onto
// A⁻¹·z_i (exact when A is a scaled rotation; otherwise a step the error
// test below judges). Both need only Σ z·aᵀ and Σ a·aᵀ, which, like the
// frame's error, come from the skin's pair sums (sums.go). Descendants keep
// their scales and, as near as a rotation can, their global linear part,
// so a limb does not swing with its parent's fit. The last sweep of a
// pass is followed by joint-wide Levenberg–Marquardt steps (polish.go,
// per-axis only), which move a parent's scale and its child together.
// Between passes the weights are solved again (weights.go). A step that
// raises the frame's error is undone, so the result never fits worse
// than r.
func Fit(ctx context.Context, r *rig.Rig, s *seq.Sequence, opt Options) (*rig.Rig, error) {
	rounds := opt.Rounds
	if rounds == 0 {
		rounds = 1
	}
	if rounds < 0 {
		return nil, fmt.Errorf("stretch: %d rounds", rounds)
	}
	if opt.Tolerance < 0 || opt.Tolerance >= 1 || math.IsNaN(opt.Tolerance) {
		return nil, fmt.Errorf("stretch: tolerance %v (0 to 1)", opt.Tolerance)
	}
	if opt.Tolerance == 0 {
		opt.Tolerance = polishTol
	}
	n, nj := len(r.Mesh.Verts), r.Skeleton.Len()
	if n != s.N() {
		return nil, fmt.Errorf("stretch: the rig has %d vertices, the sequence %d", n, s.N())
	}
	total := 0
	for _, c := range r.Clips {
		total += c.Frames
	}
	if total != s.F() {
		return nil, fmt.Errorf("stretch: the rig's clips have %d frames, the sequence %d", total, s.F())
	}
	out := *r
	out.Clips = make([]rig.Clip, len(r.Clips))
	// The output clips are the state: local rotation, scale and root
	// translation per frame, fitted in place.
	frames := make([]frameRef, 0, total)
	for c, cl := range r.Clips {
		o := rig.Clip{Name: cl.Name, FPS: cl.FPS, Frames: cl.Frames,
			Rotation:    append([]linalg.Quat(nil), cl.Rotation...),
			Translation: append([]linalg.Vec3(nil), cl.Translation...),
			Scale:       make([]linalg.Vec3, cl.Frames*nj),
		}
		for k := range o.Scale {
			o.Scale[k] = cl.ScaleAt(k/nj, k%nj, nj)
		}
		out.Clips[c] = o
		for f := 0; f < cl.Frames; f++ {
			frames = append(frames, frameRef{c, f})
		}
	}
	wrounds := opt.WeightRounds
	if wrounds == 0 {
		wrounds = 2
	}
	maxInf := opt.MaxInfluences
	if maxInf == 0 {
		maxInf = rig.MaxInfluences
	}
	if maxInf < 1 || maxInf > rig.MaxInfluences {
		return nil, fmt.Errorf("stretch: %d influences per vertex (1 to %d)", maxInf, rig.MaxInfluences)
	}
	steps := rounds * (1 + max(wrounds, 0))
	cen := newCentring(r, s) // centre.go
	cen.shift(&out)
	for w := 0; w <= max(wrounds, 0); w++ {
		if w > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			out.Skin = fitWeights(&out, s, cen.frames, maxInf)
		}
		if err := sweeps(ctx, &out, s, cen.frames, frames, opt, rounds, w*rounds, steps); err != nil {
			return nil, err
		}
	}
	cen.unshift(&out, r)
	return &out, nil
}

// sweeps runs rounds sweeps of the joint fits over every frame of r, each
// frame of s moved by minus its centroid in at.
func sweeps(ctx context.Context, r *rig.Rig, s *seq.Sequence, at []linalg.Vec3, frames []frameRef, opt Options, rounds, done, steps int) error {
	nj, total := r.Skeleton.Len(), len(frames)
	out := r
	fr := newFitter(r, opt.Uniform)
	for round := 0; round < rounds; round++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		par.For(total, 1, func(lo, hi int) {
			sc := fr.scratch()
			var pos []linalg.Vec3
			for g := lo; g < hi; g++ {
				c, f := frames[g].clip, frames[g].frame
				cl := &out.Clips[c]
				st := frameState{
					rot:   cl.Rotation[f*nj : (f+1)*nj],
					trans: cl.Translation[f*nj : (f+1)*nj],
					scale: cl.Scale[f*nj : (f+1)*nj],
				}
				pos = s.FrameInto(pos, g)
				for i := range pos {
					pos[i] = pos[i].Sub(at[g])
				}
				sc.t.set(out, pos)
				fr.sweep(st, sc)
				if !opt.Uniform && round == rounds-1 {
					fr.polish(st, sc, polishIters, opt.Tolerance)
				}
			}
		})
		opt.Progress.Report("stretch", done+round+1, steps)
	}
	return nil
}

// polishIters is how many joint-wide Levenberg–Marquardt steps follow
// the last sweep of each pass (polish). The cow at 11 bones (rigid:
// RMSE% 1.49), measured when every step replayed the vertices: 3 steps
// 0.805 in 42 CPU-seconds, 5 steps 0.793 in 47, 10 steps 0.785 in 58;
// from the skin's sums (sums.go), factored along the tree (blocks.go)
// and stopping once a step gains under polishTol, the whole fit takes
// 1.5.
const polishIters = 10

type frameRef struct{ clip, frame int }

// frameState is one frame of a clip: local rotations, translations and
// scales of every joint, fitted in place.
type frameState struct {
	rot   []linalg.Quat
	trans []linalg.Vec3
	scale []linalg.Vec3
}
