package linalg

import "math"

// MaxSimplexVars is the largest problem SimplexLS solves.
const MaxSimplexVars = 8

// SimplexLS minimizes wᵀGw − 2hᵀw over weights w ≥ 0 with Σw = 1, the
// normal-equation form of a least-squares fit of convex weights (an LBS
// weight solve: G = AᵀA, h = Aᵀb). G is k×k row-major, symmetric positive
// semi-definite, k ≤ MaxSimplexVars. The result goes into w[:k].
//
// It is exact: a primal active-set method, which stops at the KKT point of
// this convex problem. ridge > 0 adds ridge·I to G (a small value keeps
// singular systems solvable).
func SimplexLS(g []float64, h []float64, k int, ridge float64, w []float64) {
	if k == 1 {
		w[0] = 1
		return
	}
	simplexActiveSet(g, h, k, ridge, w)
}

// simplexActiveSet solves SimplexLS by a primal active-set method in the
// manner of Lawson & Hanson's NNLS: grow the support by the variable whose
// gradient is lowest below the support's common multiplier, solve the
// equality-constrained problem on the support, and step back to the
// boundary (dropping variables) while that solution has negative parts.
// The problem is convex, so the KKT point it stops at is the optimum.
func simplexActiveSet(g, h []float64, k int, ridge float64, w []float64) {
	var in [MaxSimplexVars]bool
	var cur, z [MaxSimplexVars]float64
	var idx [MaxSimplexVars]int
	scale := 0.0
	first := 0
	for i := 0; i < k; i++ {
		scale = math.Max(scale, math.Abs(g[i*k+i]+ridge))
		if g[i*k+i]-2*h[i] < g[first*k+first]-2*h[first] {
			first = i
		}
	}
	tol := 1e-13 * math.Max(scale, 1e-300)
	in[first], cur[first] = true, 1
	for outer := 0; outer < 4*k; outer++ {
		// r = G̃w − h; on the support its entries share the multiplier μ.
		var r [MaxSimplexVars]float64
		mu := 0.0
		for i := 0; i < k; i++ {
			s := ridge*cur[i] - h[i]
			for j := 0; j < k; j++ {
				s += g[i*k+j] * cur[j]
			}
			r[i] = s
			if in[i] {
				mu += cur[i] * s
			}
		}
		enter := -1
		for i := 0; i < k; i++ {
			if !in[i] && r[i] < mu-tol && (enter < 0 || r[i] < r[enter]) {
				enter = i
			}
		}
		if enter < 0 {
			break
		}
		in[enter] = true
		for inner := 0; inner < k; inner++ {
			m := 0
			for i := 0; i < k; i++ {
				if in[i] {
					idx[m] = i
					m++
				}
			}
			var sol [MaxSimplexVars]float64
			if !solveKKT(g, h, k, ridge, idx[:m], sol[:m]) {
				in[enter] = false // singular with it: leave the support as it was
				break
			}
			z = [MaxSimplexVars]float64{}
			neg := false
			for a := 0; a < m; a++ {
				z[idx[a]] = sol[a]
				neg = neg || sol[a] <= 0
			}
			if !neg {
				cur = z
				break
			}
			// Step from cur toward z until the first support weight hits 0.
			alpha := 1.0
			for a := 0; a < m; a++ {
				if i := idx[a]; z[i] <= 0 {
					alpha = math.Min(alpha, cur[i]/(cur[i]-z[i]))
				}
			}
			for a := 0; a < m; a++ {
				i := idx[a]
				cur[i] += alpha * (z[i] - cur[i])
				if cur[i] <= 1e-15 {
					cur[i], in[i] = 0, false
				}
			}
		}
	}
	var sum float64
	for i := 0; i < k; i++ {
		cur[i] = math.Max(cur[i], 0)
		sum += cur[i]
	}
	if !(sum > 0) {
		cur = [MaxSimplexVars]float64{}
		cur[first], sum = 1, 1
	}
	for i := 0; i < k; i++ {
		w[i] = cur[i] / sum
	}
}

// solveKKT solves min wᵀGw − 2hᵀw, Σw = 1 on the subset idx: with the
// Cholesky factor of G̃ = G + ridge·I there, w = G̃⁻¹(h + μ1) with μ set
// by Σw = 1 — two triangular solve pairs. A G̃ too close to singular for
// Cholesky (coincident bones) takes Gaussian elimination of the bordered
// (m+1)×(m+1) system, which needs only the bordered matrix to be regular.
// It reports false when that is singular too.
func solveKKT(g, h []float64, k int, ridge float64, idx []int, out []float64) bool {
	m := len(idx)
	if m == 1 {
		out[0] = 1
		return true
	}
	if solveKKTCholesky(g, h, k, ridge, idx, out) {
		return true
	}
	return solveKKTElimination(g, h, k, ridge, idx, out)
}

// solveKKTCholesky is solveKKT's fast path; false when G̃ on idx is not
// safely positive definite or the multiplier is undefined.
func solveKKTCholesky(g, h []float64, k int, ridge float64, idx []int, out []float64) bool {
	m := len(idx)
	var l [MaxSimplexVars][MaxSimplexVars]float64
	var diagMax float64
	for r := 0; r < m; r++ {
		diagMax = math.Max(diagMax, g[idx[r]*k+idx[r]]+ridge)
	}
	for r := 0; r < m; r++ {
		for c := 0; c <= r; c++ {
			s := g[idx[r]*k+idx[c]]
			if r == c {
				s += ridge
			}
			for q := 0; q < c; q++ {
				s -= l[r][q] * l[c][q]
			}
			if r == c {
				if s <= 1e-10*diagMax {
					return false
				}
				l[r][r] = math.Sqrt(s)
			} else {
				l[r][c] = s / l[c][c]
			}
		}
	}
	// Solve G̃x = h and G̃y = 1.
	var x, y [MaxSimplexVars]float64
	for r := 0; r < m; r++ {
		sx, sy := h[idx[r]], 1.0
		for q := 0; q < r; q++ {
			sx -= l[r][q] * x[q]
			sy -= l[r][q] * y[q]
		}
		x[r], y[r] = sx/l[r][r], sy/l[r][r]
	}
	for r := m - 1; r >= 0; r-- {
		sx, sy := x[r], y[r]
		for q := r + 1; q < m; q++ {
			sx -= l[q][r] * x[q]
			sy -= l[q][r] * y[q]
		}
		x[r], y[r] = sx/l[r][r], sy/l[r][r]
	}
	var sx, sy float64
	for r := 0; r < m; r++ {
		sx += x[r]
		sy += y[r]
	}
	if !(sy > 0) {
		return false
	}
	mu := (1 - sx) / sy
	for r := 0; r < m; r++ {
		out[r] = x[r] + mu*y[r]
	}
	return true
}

// solveKKTElimination is solveKKT's fallback: Gaussian elimination with
// partial pivoting of the bordered KKT system.
func solveKKTElimination(g, h []float64, k int, ridge float64, idx []int, out []float64) bool {
	m := len(idx)
	n := m + 1
	var a [MaxSimplexVars + 1][MaxSimplexVars + 2]float64
	for r := 0; r < m; r++ {
		for c := 0; c < m; c++ {
			a[r][c] = g[idx[r]*k+idx[c]]
		}
		a[r][r] += ridge
		a[r][m] = 1
		a[r][n] = h[idx[r]]
	}
	for c := 0; c < m; c++ {
		a[m][c] = 1
	}
	a[m][n] = 1
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-300 {
			return false
		}
		a[col], a[piv] = a[piv], a[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			if f == 0 {
				continue
			}
			for c := col; c <= n; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	var x [MaxSimplexVars + 1]float64
	for r := n - 1; r >= 0; r-- {
		s := a[r][n]
		for c := r + 1; c < n; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	for i := 0; i < m; i++ {
		if math.IsNaN(x[i]) {
			return false
		}
		out[i] = x[i]
	}
	return true
}
