package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// FitClusters fits one rigid transform per cluster and frame, mapping the
// rest positions of the cluster's vertices onto their frame positions.
// The result is F·nc, frame-major.
func (p *Model) FitClusters(label []int32, nc int) []linalg.Affine {
	m := make([]linalg.Affine, p.F*nc)
	scratch := newScratch[[]linalg.Vec3]()
	par.For(p.F, 1, func(lo, hi int) {
		buf := scratch.get()
		defer func() { scratch.put(buf) }()
		fits := make([]linalg.RigidFit, nc)
		for f := lo; f < hi; f++ {
			clear(fits)
			fr := p.FrameInto(buf, f)
			buf = fr
			for i, l := range label {
				if l >= 0 { // -1: dropped, awaiting reassignment
					fits[l].Add(p.Rest[i], fr[i], 1)
				}
			}
			for j := range fits {
				m[f*nc+j] = fits[j].Solve()
			}
		}
	})
	return m
}

// FitWeighted gives every bone, in every frame, the rigid transform that
// best maps the vertices it moves, each counted by its weight: a starting
// point for frames the rigging did not see.
func (p *Model) FitWeighted() []linalg.Affine {
	m := make([]linalg.Affine, p.F*p.B)
	scratch := newScratch[[]linalg.Vec3]()
	par.For(p.F, 1, func(lo, hi int) {
		buf := scratch.get()
		defer func() { scratch.put(buf) }()
		fits := make([]linalg.RigidFit, p.B)
		for f := lo; f < hi; f++ {
			clear(fits)
			fr := p.FrameInto(buf, f)
			buf = fr
			for i := 0; i < p.N; i++ {
				for k := 0; k < MaxK; k++ {
					if j := p.WB[i*MaxK+k]; j >= 0 {
						fits[j].Add(p.Rest[i], fr[i], p.WW[i*MaxK+k])
					}
				}
			}
			for j := range fits {
				m[f*p.B+j] = fits[j].Solve()
			}
		}
	})
	return m
}
