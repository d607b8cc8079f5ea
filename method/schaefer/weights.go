package schaefer

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// candidates bounds the bones a vertex's least squares considers: those
// that reproduce it best alone. (The paper solves over every bone; bones
// beyond the best few end with zero weight, and the solve is cubic.)
const candidates = 8

// solveWeights sets the model's weights (§4): per vertex, least squares
// over its allowed bones (nil: all) with the weights summing to one; the
// most negative weight is zeroed and the rest re-solved until none is
// negative, then the smallest until at most k remain.
func solveWeights(m *skinning.Model, allowed [][]int32, k int) {
	ps := m.NewPairSums()
	all := make([]int32, m.B)
	for j := range all {
		all[j] = int32(j)
	}
	m.WB = make([]int32, m.N*skinning.MaxK)
	m.WW = make([]float64, m.N*skinning.MaxK)
	par.For(m.N, 256, func(lo, hi int) {
		var g, h []float64
		for i := lo; i < hi; i++ {
			bones := all
			if allowed != nil {
				bones = allowed[i]
			}
			n := len(bones)
			if cap(g) < n*n {
				g, h = make([]float64, n*n), make([]float64, n)
			}
			g, h = g[:n*n], h[:n]
			m.System(i, bones, ps, g, h)
			set := best(bones, g, h, candidates)
			set, w := zeroing(bones, g, h, set, k)
			for s := 0; s < skinning.MaxK; s++ {
				m.WB[i*skinning.MaxK+s], m.WW[i*skinning.MaxK+s] = -1, 0
			}
			for s, c := range set {
				if s < skinning.MaxK {
					m.WB[i*skinning.MaxK+s], m.WW[i*skinning.MaxK+s] = bones[c], w[s]
				}
			}
			skinning.NormalizeSlots(m.WB[i*skinning.MaxK:(i+1)*skinning.MaxK], m.WW[i*skinning.MaxK:(i+1)*skinning.MaxK])
		}
	})
}

// best returns the indices (into bones) of the at most c bones whose
// single-bone residual G_aa − 2h_a is smallest, in bone order.
func best(bones []int32, g, h []float64, c int) []int {
	n := len(bones)
	idx := make([]int, n)
	for a := range idx {
		idx[a] = a
	}
	sort.SliceStable(idx, func(x, y int) bool {
		return g[idx[x]*n+idx[x]]-2*h[idx[x]] < g[idx[y]*n+idx[y]]-2*h[idx[y]]
	})
	if len(idx) > c {
		idx = idx[:c]
	}
	sort.Ints(idx)
	return idx
}

// zeroing solves min wᵀGw − 2hᵀw, Σw = 1 on set, then repeatedly drops
// the most negative weight, then the smallest while more than k remain.
// It returns the surviving subset and its weights.
func zeroing(bones []int32, g, h []float64, set []int, k int) ([]int, []float64) {
	n := len(bones)
	for {
		w := kkt(g, h, n, set)
		drop := -1
		for s := range w {
			if w[s] < 0 && (drop < 0 || w[s] < w[drop]) {
				drop = s
			}
		}
		if drop < 0 && len(set) > k {
			drop = 0
			for s := range w {
				if w[s] < w[drop] {
					drop = s
				}
			}
		}
		if drop < 0 || len(set) == 1 {
			return set, w
		}
		set = append(set[:drop], set[drop+1:]...)
	}
}

// kkt solves the equality-constrained least squares on the subset set by
// Gaussian elimination of its KKT system (a tiny ridge keeps twin bones
// solvable).
func kkt(g, h []float64, n int, set []int) []float64 {
	m := len(set)
	if m == 1 {
		return []float64{1}
	}
	sub := make([]float64, m*m)
	hs := make([]float64, m)
	for a, x := range set {
		hs[a] = h[x]
		for b, y := range set {
			sub[a*m+b] = g[x*n+y]
		}
	}
	w := make([]float64, m)
	if m <= linalg.MaxSimplexVars {
		if solveEq(sub, hs, m, w) {
			return w
		}
	}
	for a := range w {
		w[a] = 1 / float64(m)
	}
	return w
}

// solveEq solves [G 1; 1ᵀ 0][w; μ] = [h; 1].
func solveEq(g, h []float64, m int, w []float64) bool {
	n := m + 1
	a := make([]float64, n*(n+1))
	at := func(r, c int) *float64 { return &a[r*(n+1)+c] }
	for r := 0; r < m; r++ {
		for c := 0; c < m; c++ {
			*at(r, c) = g[r*m+c]
		}
		*at(r, r) += 1e-12
		*at(r, m) = 1
		*at(r, n) = h[r]
		*at(m, r) = 1
	}
	*at(m, n) = 1
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(*at(r, col)) > math.Abs(*at(piv, col)) {
				piv = r
			}
		}
		if math.Abs(*at(piv, col)) < 1e-300 {
			return false
		}
		for c := 0; c <= n; c++ {
			*at(col, c), *at(piv, c) = *at(piv, c), *at(col, c)
		}
		for r := col + 1; r < n; r++ {
			f := *at(r, col) / *at(col, col)
			for c := col; c <= n; c++ {
				*at(r, c) -= f * *at(col, c)
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := *at(r, n)
		for c := r + 1; c < n; c++ {
			s -= *at(r, c) * x[c]
		}
		x[r] = s / *at(r, r)
	}
	for i := 0; i < m; i++ {
		if math.IsNaN(x[i]) {
			return false
		}
		w[i] = x[i]
	}
	return true
}

// influenceMaps floods each bone's influence from its heaviest vertex
// through vertices that weigh it (§4), and returns each vertex's bones:
// those whose map reaches it. A vertex no map reaches takes its
// neighbours' bones, repeatedly, so every vertex ends with some.
func influenceMaps(m *skinning.Model) [][]int32 {
	weight := func(i int, j int32) float64 {
		for s := 0; s < skinning.MaxK; s++ {
			if m.WB[i*skinning.MaxK+s] == j {
				return m.WW[i*skinning.MaxK+s]
			}
		}
		return 0
	}
	allowed := make([][]int32, m.N)
	seen := make([]int32, m.N)
	for i := range seen {
		seen[i] = -1
	}
	for j := int32(0); j < int32(m.B); j++ {
		seed, top := -1, 0.0
		for i := 0; i < m.N; i++ {
			if w := weight(i, j); w > top {
				seed, top = i, w
			}
		}
		if seed < 0 {
			continue
		}
		queue := []int{seed}
		seen[seed] = j
		for q := 0; q < len(queue); q++ {
			i := queue[q]
			allowed[i] = append(allowed[i], j)
			for _, nb := range m.Top.Neighbors(i) {
				if seen[nb] != j && weight(nb, j) > 0 {
					seen[nb] = j
					queue = append(queue, nb)
				}
			}
		}
	}
	// Cover the uncovered from their neighbours.
	for changed := true; changed; {
		changed = false
		for i := range allowed {
			if len(allowed[i]) > 0 {
				continue
			}
			set := map[int32]bool{}
			for _, nb := range m.Top.Neighbors(i) {
				for _, j := range allowed[nb] {
					set[j] = true
				}
			}
			for j := range set {
				allowed[i] = append(allowed[i], j)
			}
			sort.Slice(allowed[i], func(a, b int) bool { return allowed[i][a] < allowed[i][b] })
			changed = changed || len(allowed[i]) > 0
		}
	}
	for i := range allowed {
		if len(allowed[i]) == 0 { // an isolated vertex: every bone
			for j := int32(0); j < int32(m.B); j++ {
				allowed[i] = append(allowed[i], j)
			}
		}
	}
	return allowed
}
