package refit

import (
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// maxCand bounds a vertex's candidate joints (the exact simplex solve's size).
const maxCand = linalg.MaxSimplexVars

// ridge keeps coincident candidates (equal columns) solvable.
const ridge = 1e-12

// weightSolver re-solves every vertex's weights against the current
// transforms: the data term of Le & Deng 2014 Eq. 5 (no Laplacian term: a
// refit sees every frame, and the acceptance test below is on the data
// alone) over the vertex's candidates — its own joints, the joints of
// its nearest bones (so a joint that moves no vertex yet, such as one
// just added, can take some) and its one-ring's joints (across seams: ring.go) —, non-negative
// and summing to one, the k largest kept and solved again. A vertex keeps
// its weights when the new ones fit its motion worse, so the update never
// raises the fit's error.
type weightSolver struct {
	p    *skinning.Model
	k    int
	near [][nearK]int32
	ring ring
	keep []bool // per vertex, or nil: kept vertices are not solved (Options.Mask)
}

func (ws *weightSolver) update() {
	p := ws.p
	ps := p.NewPairSums()
	wb := make([]int32, len(p.WB))
	ww := make([]float64, len(p.WW))
	par.For(p.N, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if ws.keep != nil && ws.keep[i] {
				copy(wb[i*skinning.MaxK:(i+1)*skinning.MaxK], p.WB[i*skinning.MaxK:(i+1)*skinning.MaxK])
				copy(ww[i*skinning.MaxK:(i+1)*skinning.MaxK], p.WW[i*skinning.MaxK:(i+1)*skinning.MaxK])
				continue
			}
			ws.solve(i, ps, wb[i*skinning.MaxK:(i+1)*skinning.MaxK], ww[i*skinning.MaxK:(i+1)*skinning.MaxK])
		}
	})
	p.WB, p.WW = wb, ww
}

// solve writes vertex i's new weight slots into wb, ww.
func (ws *weightSolver) solve(i int, ps *skinning.PairSums, wb []int32, ww []float64) {
	p := ws.p
	var bones [maxCand]int32
	n := 0
	add := func(j int32) {
		if j < 0 || n == maxCand {
			return
		}
		for c := 0; c < n; c++ {
			if bones[c] == j {
				return
			}
		}
		bones[n] = j
		n++
	}
	own := p.WB[i*skinning.MaxK : (i+1)*skinning.MaxK]
	for _, j := range own {
		add(j)
	}
	for _, j := range ws.near[i] {
		add(j)
	}
	for _, nb := range ws.ring.of(i) {
		for _, j := range p.WB[nb*skinning.MaxK : (nb+1)*skinning.MaxK] {
			add(j)
		}
	}
	var g [maxCand * maxCand]float64
	var h [maxCand]float64
	p.System(i, bones[:n], ps, g[:n*n], h[:n])

	// The current weights over the candidates (own joints come first).
	var old [maxCand]float64
	support := 0
	for k, j := range own {
		if j < 0 {
			continue
		}
		support++
		for c := 0; c < n; c++ {
			if bones[c] == j {
				old[c] += p.WW[i*skinning.MaxK+k]
			}
		}
	}
	var w [maxCand]float64
	linalg.SimplexLS(g[:n*n], h[:n], n, ridge, w[:n])
	w = keepLargest(g[:n*n], h[:n], n, ws.k, w)
	if support <= ws.k && quadratic(g[:n*n], h[:n], n, old[:n]) < quadratic(g[:n*n], h[:n], n, w[:n]) {
		w = old
	}
	out := 0
	for c := 0; c < n; c++ {
		if w[c] > 0 && out < skinning.MaxK {
			wb[out], ww[out] = bones[c], w[c]
			out++
		}
	}
	for ; out < skinning.MaxK; out++ {
		wb[out], ww[out] = -1, 0
	}
	skinning.NormalizeSlots(wb, ww)
}

// keepLargest returns w when at most k weights are positive; otherwise the
// solve again over the k largest (ties to the lower index).
func keepLargest(g, h []float64, n, k int, w [maxCand]float64) [maxCand]float64 {
	var idx []int
	for c := 0; c < n; c++ {
		if w[c] > 0 {
			idx = append(idx, c)
		}
	}
	if len(idx) <= k {
		return w
	}
	sort.SliceStable(idx, func(a, b int) bool { return w[idx[a]] > w[idx[b]] })
	idx = idx[:k]
	sort.Ints(idx)
	var sg [maxCand * maxCand]float64
	var sh, sw [maxCand]float64
	for a, ca := range idx {
		sh[a] = h[ca]
		for b, cb := range idx {
			sg[a*k+b] = g[ca*n+cb]
		}
	}
	linalg.SimplexLS(sg[:k*k], sh[:k], k, ridge, sw[:k])
	var out [maxCand]float64
	for a, ca := range idx {
		out[ca] = sw[a]
	}
	return out
}

// quadratic is wᵀGw − 2hᵀw: a vertex's squared fit error over the frames
// (divided by their count), up to a constant.
func quadratic(g, h []float64, n int, w []float64) float64 {
	var q float64
	for a := 0; a < n; a++ {
		if w[a] == 0 {
			continue
		}
		var ga float64
		for b := 0; b < n; b++ {
			ga += g[a*n+b] * w[b]
		}
		q += w[a] * (ga - 2*h[a])
	}
	return q
}
