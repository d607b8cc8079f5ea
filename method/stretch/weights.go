package stretch

import (
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// fitWeights solves every vertex's weights again for the scaled motion of
// r (its clips played in order cover s; frame f of s moved by −at[f], r
// moved with it: centre.go): the convex least squares
// min_w Σ_f ‖Σ_k w_k M_k^f r_i − y_i^f‖², Σw = 1, w ≥ 0 (linalg.SimplexLS
// on its normal equations), over the vertex's joints and their parents,
// then over the maxInf heaviest of those. A vertex keeps its old weights
// when the new ones fit it worse (the truncation can), so the rig's
// error never rises.
func fitWeights(r *rig.Rig, s *seq.Sequence, at []linalg.Vec3, maxInf int) rig.Skin {
	sk := &r.Skeleton
	nj := sk.Len()
	var mats []linalg.Affine // frame-major skin matrices of every joint
	for c := range r.Clips {
		for f := 0; f < r.Clips[c].Frames; f++ {
			pose := sk.Pose(&r.Clips[c], f, nil)
			mats = append(mats, sk.SkinMatrices(pose, pose)...)
		}
	}
	nf := len(mats) / nj
	out := make(rig.Skin, len(r.Skin))
	par.For(len(r.Skin), 256, func(lo, hi int) {
		var g [linalg.MaxSimplexVars * linalg.MaxSimplexVars]float64
		var h, w [linalg.MaxSimplexVars]float64
		var p [linalg.MaxSimplexVars]linalg.Vec3
		for i := lo; i < hi; i++ {
			old := r.Skin[i]
			cand := candidates(sk, old)
			k := len(cand)
			rp := r.Mesh.Verts[i]
			for a := range g[:k*k] {
				g[a] = 0
			}
			for a := range h[:k] {
				h[a] = 0
			}
			yy := 0.0
			for f := 0; f < nf; f++ {
				y := s.Frames[f*len(r.Skin)+i].Vec3().Sub(at[f])
				yy += y.Dot(y)
				for a, j := range cand {
					p[a] = mats[f*nj+int(j)].Apply(rp)
					h[a] += p[a].Dot(y)
				}
				for a := 0; a < k; a++ {
					for b := 0; b <= a; b++ {
						g[a*k+b] += p[a].Dot(p[b])
					}
				}
			}
			for a := 0; a < k; a++ {
				for b := 0; b < a; b++ {
					g[b*k+a] = g[a*k+b]
				}
			}
			errOf := func(w []float64) float64 { // wᵀGw − 2hᵀw + Σ‖y‖²
				e := yy
				for a := range w {
					e -= 2 * h[a] * w[a]
					for b := range w {
						e += w[a] * g[a*k+b] * w[b]
					}
				}
				return e
			}
			oldW := make([]float64, k)
			for a, j := range cand {
				for t := 0; t < rig.MaxInfluences; t++ {
					if old.Weight[t] > 0 && old.Joint[t] == j {
						oldW[a] = old.Weight[t]
					}
				}
			}
			const ridge = 1e-12
			linalg.SimplexLS(g[:k*k], h[:k], k, ridge, w[:k])
			if n := countPos(w[:k]); n > maxInf {
				// Keep the maxInf heaviest and solve again on them.
				idx := make([]int, k)
				for a := range idx {
					idx[a] = a
				}
				sort.SliceStable(idx, func(x, y int) bool { return w[idx[x]] > w[idx[y]] })
				keep := idx[:maxInf]
				sort.Ints(keep)
				var g2 [linalg.MaxSimplexVars * linalg.MaxSimplexVars]float64
				var h2, w2 [linalg.MaxSimplexVars]float64
				for a, x := range keep {
					h2[a] = h[x]
					for b, y := range keep {
						g2[a*maxInf+b] = g[x*k+y]
					}
				}
				linalg.SimplexLS(g2[:maxInf*maxInf], h2[:maxInf], maxInf, ridge, w2[:maxInf])
				for a := range w[:k] {
					w[a] = 0
				}
				for a, x := range keep {
					w[x] = w2[a]
				}
			}
			if errOf(w[:k]) >= errOf(oldW) {
				out[i] = old
				continue
			}
			var in rig.Influence
			t := 0
			for a, j := range cand {
				if w[a] > 0 {
					in.Joint[t], in.Weight[t] = j, w[a]
					t++
				}
			}
			sum := 0.0
			for t := range in.Weight {
				sum += in.Weight[t]
			}
			for t := range in.Weight {
				in.Weight[t] /= sum
			}
			out[i] = in
		}
	})
	return out
}

// candidates lists a vertex's weighted joints and their parents, each
// once, in index order (at most 8).
func candidates(sk *rig.Skeleton, in rig.Influence) []rig.JointID {
	var c []rig.JointID
	add := func(j rig.JointID) {
		for _, x := range c {
			if x == j {
				return
			}
		}
		c = append(c, j)
	}
	for t := 0; t < rig.MaxInfluences; t++ {
		if in.Weight[t] > 0 {
			add(in.Joint[t])
		}
	}
	for t := 0; t < rig.MaxInfluences; t++ {
		if p := sk.Joints[in.Joint[t]].Parent; in.Weight[t] > 0 && p != rig.NoParent {
			add(p)
		}
	}
	sort.Slice(c, func(a, b int) bool { return c[a] < c[b] })
	return c
}

func countPos(w []float64) int {
	n := 0
	for _, x := range w {
		if x > 0 {
			n++
		}
	}
	return n
}
