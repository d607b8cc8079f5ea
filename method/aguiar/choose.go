package aguiar

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/method/skinweights"
)

// choose returns the segmentation whose rig reproduces m best, when
// spectral clustering gave several (one per variation level).
//
// How much of the motion the patches must explain is the paper's one
// free choice ("about 99%"), and no single level suits every character:
// where the skin blends along a whole limb (RiggedSimple's cylinder,
// bent 90° at each joint), 99.9% splits every blended ring into patches
// of its own and their joints wind along the limb, while characters with
// many small bones need that much to part them. Each segmentation is
// rigged cheaply — heat weights from choiceHeatFrames frames and, when
// opt.Refine asks for the fit, one round of it — and scored by its
// squared error over m's vertices and frames (at most choiceFrames of
// them); ties go to the lower level.
func choose(ctx context.Context, m *skinning.Model, tris [][3]int, hs *skinweights.HeatSolver, segs []segmentation, opt Options) (segmentation, error) {
	if len(segs) == 1 {
		return segs[0], nil
	}
	if m.F > choiceFrames {
		m = m.Subset(m.SampleFrames(choiceFrames))
	}
	quick := opt
	quick.HeatFrames = min(choiceHeatFrames, m.F)
	quick.Progress = nil
	best, bestErr := 0, 0.0
	var tried []string
	for c, sg := range segs {
		if err := ctx.Err(); err != nil {
			return segmentation{}, err
		}
		q := &skinning.Model{N: m.N, F: m.F, Rest: m.Rest, Frames: m.Frames, Top: m.Top}
		h, err := rigPatches(q, tris, hs, sg.vertex, sg.tri, sg.k, quick)
		if err != nil {
			return segmentation{}, err
		}
		if opt.Refine > 0 {
			heatB, heatW := append([]int32(nil), q.WB...), append([]float64(nil), q.WW...)
			q.FitRotations(h, 2)
			fitWeights(q, heatB, heatW, heatPull)
			q.FitRotations(h, 2)
		}
		e := q.SSE()
		tried = append(tried, strconv.Itoa(sg.k))
		if c == 0 || e < bestErr {
			best, bestErr = c, e
		}
	}
	opt.Notes.Add(fmt.Sprintf("spectral: segmentations of %s patches tried (%g–%g%% of the motion explained); kept the %d whose rig reproduces the input best",
		strings.Join(tried, ", "), 100*opt.levels()[0], 100*opt.levels()[len(opt.levels())-1], segs[best].k))
	return segs[best], nil
}

// choiceFrames bounds the frames a candidate segmentation is scored on.
const choiceFrames = 16

// choiceHeatFrames is how many frames' heat solutions a candidate
// segmentation's quick rig averages.
const choiceHeatFrames = 4
