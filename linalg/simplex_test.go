package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteSimplex minimizes on a fine grid of the simplex (k = 3).
func bruteSimplex(g, h []float64) (float64, [3]float64) {
	best := math.Inf(1)
	var bw [3]float64
	const n = 400
	for a := 0; a <= n; a++ {
		for b := 0; a+b <= n; b++ {
			w := [3]float64{float64(a) / n, float64(b) / n, float64(n-a-b) / n}
			var o float64
			for i := 0; i < 3; i++ {
				o -= 2 * h[i] * w[i]
				for j := 0; j < 3; j++ {
					o += w[i] * g[i*3+j] * w[j]
				}
			}
			if o < best {
				best, bw = o, w
			}
		}
	}
	return best, bw
}

func TestSimplexLSMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 50; trial++ {
		// A random 6×3 least-squares problem.
		var a [6][3]float64
		var b [6]float64
		for i := range a {
			for j := range a[i] {
				a[i][j] = r.NormFloat64()
			}
			b[i] = r.NormFloat64()
		}
		g := make([]float64, 9)
		h := make([]float64, 3)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				for k := 0; k < 6; k++ {
					g[i*3+j] += a[k][i] * a[k][j]
				}
			}
			for k := 0; k < 6; k++ {
				h[i] += a[k][i] * b[k]
			}
		}
		w := make([]float64, 3)
		SimplexLS(g, h, 3, 0, w)
		var sum, obj float64
		for i := 0; i < 3; i++ {
			if w[i] < 0 {
				t.Fatalf("negative weight %v", w)
			}
			sum += w[i]
			obj -= 2 * h[i] * w[i]
			for j := 0; j < 3; j++ {
				obj += w[i] * g[i*3+j] * w[j]
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("weights sum to %v", sum)
		}
		bo, _ := bruteSimplex(g, h)
		if obj > bo+1e-9 {
			t.Fatalf("trial %d: objective %v worse than grid %v", trial, obj, bo)
		}
	}
}

func TestSimplexLSExactWeights(t *testing.T) {
	// b = 0.3·a1 + 0.7·a2 exactly: the solver must find (0.3, 0.7, 0).
	cols := [3][4]float64{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 5}}
	var b [4]float64
	for k := 0; k < 4; k++ {
		b[k] = 0.3*cols[0][k] + 0.7*cols[1][k]
	}
	g := make([]float64, 9)
	h := make([]float64, 3)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 4; k++ {
				g[i*3+j] += cols[i][k] * cols[j][k]
			}
		}
		for k := 0; k < 4; k++ {
			h[i] += cols[i][k] * b[k]
		}
	}
	w := make([]float64, 3)
	SimplexLS(g, h, 3, 0, w)
	if math.Abs(w[0]-0.3) > 1e-12 || math.Abs(w[1]-0.7) > 1e-12 || w[2] != 0 {
		t.Fatalf("w = %v, want (0.3, 0.7, 0)", w)
	}
}

// enumerateSimplex solves SimplexLS by trying every support with the
// elimination KKT solver, the reference for the active-set path and the
// Cholesky KKT solver.
func enumerateSimplex(g, h []float64, k int, ridge float64) (float64, []float64) {
	best := math.Inf(1)
	var bw []float64
	var idx [MaxSimplexVars]int
	var cand [MaxSimplexVars]float64
	for mask := 1; mask < 1<<k; mask++ {
		m := 0
		for i := 0; i < k; i++ {
			if mask&(1<<i) != 0 {
				idx[m] = i
				m++
			}
		}
		if !solveKKTElimination(g, h, k, ridge, idx[:m], cand[:m]) {
			continue
		}
		w := make([]float64, k)
		ok := true
		for a := 0; a < m; a++ {
			ok = ok && cand[a] >= 0
			w[idx[a]] = cand[a]
		}
		if o := simplexObjective(g, h, k, ridge, w); ok && o < best {
			best, bw = o, w
		}
	}
	return best, bw
}

func simplexObjective(g, h []float64, k int, ridge float64, w []float64) float64 {
	var o float64
	for i := 0; i < k; i++ {
		o -= 2 * h[i] * w[i]
		o += ridge * w[i] * w[i]
		for j := 0; j < k; j++ {
			o += w[i] * g[i*k+j] * w[j]
		}
	}
	return o
}

// TestSimplexActiveSetMatchesEnumeration checks the active-set path
// against trying every support, on full-rank and rank-deficient systems
// (fewer rows than unknowns, duplicated columns) like the weight solves of
// skinning, where nearby bones move almost alike.
func TestSimplexActiveSetMatchesEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 400; trial++ {
		k := 2 + trial%7
		rows := []int{2, k, 3 * k}[trial%3]
		a := make([][]float64, rows)
		for i := range a {
			a[i] = make([]float64, k)
			for j := range a[i] {
				a[i][j] = r.NormFloat64()
			}
			if trial%5 == 0 {
				a[i][k-1] = a[i][0] // two bones that move alike
			}
		}
		b := make([]float64, rows)
		for i := range b {
			b[i] = r.NormFloat64()
		}
		g := make([]float64, k*k)
		h := make([]float64, k)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				for q := 0; q < rows; q++ {
					g[i*k+j] += a[q][i] * a[q][j]
				}
			}
			for q := 0; q < rows; q++ {
				h[i] += a[q][i] * b[q]
			}
		}
		ridge := []float64{1e-12, 1e-3}[trial%2]
		w := make([]float64, k)
		SimplexLS(g, h, k, ridge, w)
		var sum float64
		for _, x := range w {
			if x < 0 {
				t.Fatalf("trial %d: negative weight in %v", trial, w)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("trial %d: weights sum to %v", trial, sum)
		}
		want, ww := enumerateSimplex(g, h, k, ridge)
		got := simplexObjective(g, h, k, ridge, w)
		if got > want+1e-9*(1+math.Abs(want)) {
			t.Fatalf("trial %d (k=%d, %d rows): objective %.12g, best support gives %.12g (%v vs %v)", trial, k, rows, got, want, w, ww)
		}
	}
}

func BenchmarkSimplexLS8(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const k = 8
	g := make([]float64, k*k)
	h := make([]float64, k)
	a := make([][k]float64, 12)
	for i := range a {
		for j := range a[i] {
			a[i][j] = r.NormFloat64()
		}
	}
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			for q := range a {
				g[i*k+j] += a[q][i] * a[q][j]
			}
		}
		h[i] = r.NormFloat64()
	}
	w := make([]float64, k)
	for b.Loop() {
		SimplexLS(g, h, k, 1e-12, w)
	}
}
