package skinning

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// SampleFrames picks k frames spread over the motion by farthest-point
// sampling in pose space (distance: squared vertex displacement between
// two frames, on every 8th vertex), starting from the frame farthest from
// the rest pose. The result is sorted; all frames when F ≤ k.
func (p *Model) SampleFrames(k int) []int {
	if p.F <= k {
		all := make([]int, p.F)
		for f := range all {
			all[f] = f
		}
		return all
	}
	const stride = 8
	// The sampled vertices of every frame, gathered once (F·N/8 positions):
	// the greedy passes below then read a small flat array, not the
	// frames through the model's view.
	ns := (p.N + stride - 1) / stride
	sub := make([]linalg.Vec3, p.F*ns)
	par.For(p.F, 8, func(lo, hi int) {
		for f := lo; f < hi; f++ {
			for i, k := 0, f*ns; i < p.N; i, k = i+stride, k+1 {
				sub[k] = p.Pos(f, i)
			}
		}
	})
	dist := func(f int, other []linalg.Vec3) float64 {
		var d float64
		for k, v := range sub[f*ns : (f+1)*ns] {
			d += v.Sub(other[k]).Norm2()
		}
		return d
	}
	rest := make([]linalg.Vec3, ns)
	for i, k := 0, 0; i < p.N; i, k = i+stride, k+1 {
		rest[k] = p.Rest[i]
	}
	near := make([]float64, p.F)
	par.For(p.F, 8, func(lo, hi int) {
		for f := lo; f < hi; f++ {
			near[f] = dist(f, rest)
		}
	})
	var picked []int
	for len(picked) < k {
		best := 0
		for f := range near {
			if near[f] > near[best] {
				best = f
			}
		}
		picked = append(picked, best)
		near[best] = math.Inf(-1)
		par.For(p.F, 8, func(lo, hi int) {
			for f := lo; f < hi; f++ {
				if !math.IsInf(near[f], -1) {
					near[f] = math.Min(near[f], dist(f, sub[best*ns:(best+1)*ns]))
				}
			}
		})
	}
	sort.Ints(picked)
	return picked
}

// Subset returns a problem over the given frames only, sharing the rest
// pose and topology; its frames are a copy (also of a View's).
func (p *Model) Subset(frames []int) *Model {
	q := &Model{N: p.N, F: len(frames), Rest: p.Rest, Top: p.Top}
	q.Frames = make([]linalg.Vec3, len(frames)*p.N)
	for k, f := range frames {
		dst := q.Frames[k*p.N : (k+1)*p.N]
		copy(dst, p.FrameInto(dst, f))
	}
	return q
}
