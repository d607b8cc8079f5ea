package schaefer

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// lloyd refines a clustering (§3.2, optional) by Lloyd iterations with
// the Rigid Error Functions: each cluster's best transforms per frame,
// then every face to whichever of its own and its neighbours' clusters
// maps it best. A cluster is never emptied.
func lloyd(refs []ref, frames int, label []int32, k int, top *mesh.Topology, passes int) {
	nf := len(label)
	for pass := 0; pass < passes; pass++ {
		tr := clusterTransforms(refs, frames, label, k)
		size := make([]int, k)
		for _, l := range label {
			size[l]++
		}
		next := make([]int32, nf)
		par.For(nf, 512, func(lo, hi int) {
			for t := lo; t < hi; t++ {
				best, be := label[t], math.Inf(1)
				try := func(c int32) {
					var e float64
					for f := 0; f < frames; f++ {
						e += refs[t*frames+f].errorUnder(tr[int(c)*frames+f])
					}
					if e < be || (e == be && c < best) {
						best, be = c, e
					}
				}
				try(label[t])
				for _, o := range top.FaceAdj[t] {
					if o >= 0 && label[o] != label[t] {
						try(label[o])
					}
				}
				next[t] = best
			}
		})
		changed := 0
		for t := range next {
			if next[t] != label[t] && size[label[t]] > 1 {
				size[label[t]]--
				size[next[t]]++
				label[t] = next[t]
				changed++
			}
		}
		if changed == 0 {
			return
		}
	}
}

// clusterTransforms sums each cluster's functions and returns its best
// transform per frame: cluster c frame f at c*frames+f.
func clusterTransforms(refs []ref, frames int, label []int32, k int) []linalg.Affine {
	sum := make([]ref, k*frames)
	for t, l := range label {
		for f := 0; f < frames; f++ {
			sum[int(l)*frames+f].add(&refs[t*frames+f])
		}
	}
	out := make([]linalg.Affine, k*frames)
	par.For(len(sum), 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = sum[i].transform()
		}
	})
	return out
}
