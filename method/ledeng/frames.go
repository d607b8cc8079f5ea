package ledeng

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// sampleFrames picks k frames spread over the motion by farthest-point
// sampling in pose space (distance: squared vertex displacement between
// two frames, on every 8th vertex), starting from the frame farthest from
// the rest pose. The result is sorted; all frames when F ≤ k.
func (p *problem) sampleFrames(k int) []int {
	if p.f <= k {
		all := make([]int, p.f)
		for f := range all {
			all[f] = f
		}
		return all
	}
	const stride = 8
	dist := func(f int, other []linalg.Vec3, otherF int) float64 {
		var d float64
		for i := 0; i < p.n; i += stride {
			var o linalg.Vec3
			if other != nil {
				o = other[i]
			} else {
				o = p.frames[otherF*p.n+i]
			}
			d += p.frames[f*p.n+i].Sub(o).Norm2()
		}
		return d
	}
	near := make([]float64, p.f)
	par.For(p.f, 8, func(lo, hi int) {
		for f := lo; f < hi; f++ {
			near[f] = dist(f, p.rest, 0)
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
		par.For(p.f, 8, func(lo, hi int) {
			for f := lo; f < hi; f++ {
				if !math.IsInf(near[f], -1) {
					near[f] = math.Min(near[f], dist(f, nil, best))
				}
			}
		})
	}
	sort.Ints(picked)
	return picked
}

// subset returns a problem over the given frames only, sharing the rest
// pose and topology.
func (p *problem) subset(frames []int) *problem {
	q := &problem{n: p.n, f: len(frames), rest: p.rest, top: p.top}
	q.frames = make([]linalg.Vec3, 0, len(frames)*p.n)
	for _, f := range frames {
		q.frames = append(q.frames, p.frame(f)...)
	}
	return q
}

// fitWeighted gives every bone, in every frame, the rigid transform that
// best maps the vertices it moves, each counted by its weight: a starting
// point for frames the rigging did not see.
func (p *problem) fitWeighted() []linalg.Affine {
	m := make([]linalg.Affine, p.f*p.b)
	par.For(p.f, 1, func(lo, hi int) {
		fits := make([]linalg.RigidFit, p.b)
		for f := lo; f < hi; f++ {
			clear(fits)
			fr := p.frame(f)
			for i := 0; i < p.n; i++ {
				for k := 0; k < maxK; k++ {
					if j := p.wb[i*maxK+k]; j >= 0 {
						fits[j].Add(p.rest[i], fr[i], p.ww[i*maxK+k])
					}
				}
			}
			for j := range fits {
				m[f*p.b+j] = fits[j].Solve()
			}
		}
	})
	return m
}
