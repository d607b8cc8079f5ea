package sparse

import (
	"errors"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
)

// ErrNotPositiveDefinite reports a matrix Cholesky cannot factor.
var ErrNotPositiveDefinite = errors.New("matrix is not positive definite")

// Symbolic is the analysis of a symmetric sparsity pattern: the
// fill-reducing ordering, the elimination tree and the structure of the
// Cholesky factor. It is computed once and reused by every Factor of a
// matrix with the same pattern.
type Symbolic struct {
	n      int
	perm   []int // perm[k] = original index of unknown k
	inv    []int // inverse of perm
	parent []int // elimination tree
	// The permuted upper triangle C = (PAPᵀ) in compressed columns, and
	// for each of its entries the position of the value in a's Val.
	cp   []int
	ci   []int
	from []int
	// The factor's column pointers.
	lp  []int
	nnz int // of A's pattern
}

// Analyze orders a (which must be symmetric in pattern) and computes the
// structure of its Cholesky factor.
func Analyze(a *CSR) (*Symbolic, error) {
	n := a.N
	s := &Symbolic{n: n, perm: Order(a), nnz: a.NNZ()}
	s.inv = make([]int, n)
	for k, i := range s.perm {
		s.inv[i] = k
	}
	// Upper triangle of PAPᵀ by columns: entry (i, j) of A goes to
	// (inv[i], inv[j]); keep row ≤ column.
	count := make([]int, n+1)
	for i := 0; i < n; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			r, c := s.inv[i], s.inv[a.Col[k]]
			if r <= c {
				count[c+1]++
			}
		}
	}
	for j := 0; j < n; j++ {
		count[j+1] += count[j]
	}
	s.cp = append([]int(nil), count...)
	s.ci = make([]int, count[n])
	s.from = make([]int, count[n])
	next := append([]int(nil), count[:n]...)
	for i := 0; i < n; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			r, c := s.inv[i], s.inv[a.Col[k]]
			if r <= c {
				s.ci[next[c]] = r
				s.from[next[c]] = k
				next[c]++
			}
		}
	}
	// Elimination tree (Liu), with path compression through ancestors.
	s.parent = make([]int, n)
	anc := make([]int, n)
	for k := 0; k < n; k++ {
		s.parent[k], anc[k] = -1, -1
		for p := s.cp[k]; p < s.cp[k+1]; p++ {
			for i := s.ci[p]; i != -1 && i < k; {
				nxt := anc[i]
				anc[i] = k
				if nxt == -1 {
					s.parent[i] = k
				}
				i = nxt
			}
		}
	}
	// Column counts of L from the row patterns.
	colCount := make([]int, n)
	stack, mark := make([]int, n), make([]int, n)
	for i := range mark {
		mark[i] = -1
	}
	for k := 0; k < n; k++ {
		top := s.ereach(k, stack, mark)
		for _, i := range stack[top:] {
			colCount[i]++
		}
		colCount[k]++ // the diagonal
	}
	s.lp = make([]int, n+1)
	for j := 0; j < n; j++ {
		s.lp[j+1] = s.lp[j] + colCount[j]
	}
	return s, nil
}

// ereach writes the pattern of row k of L (the nodes of the elimination
// subtree reached from column k's entries) into stack[top:], in
// topological order, and returns top. mark must hold no k on entry.
func (s *Symbolic) ereach(k int, stack, mark []int) int {
	top := s.n
	mark[k] = k
	for p := s.cp[k]; p < s.cp[k+1]; p++ {
		i := s.ci[p]
		if i > k {
			continue
		}
		length := 0
		for ; mark[i] != k; i = s.parent[i] {
			stack[length] = i
			length++
			mark[i] = k
		}
		for length > 0 {
			top--
			length--
			stack[top] = stack[length]
		}
	}
	return top
}

// NNZ returns the number of nonzeros of the factor L.
func (s *Symbolic) NNZ() int { return s.lp[s.n] }

// Factor is a numeric Cholesky factorization P A Pᵀ = L Lᵀ.
type Factor struct {
	s  *Symbolic
	li []int
	lx []float64
}

// Factor computes the numeric factorization of a, whose pattern must be
// the analyzed one (up-looking Cholesky, CSparse's cs_chol scheme).
func (s *Symbolic) Factor(a *CSR) (*Factor, error) {
	if a.N != s.n || a.NNZ() != s.nnz {
		return nil, fmt.Errorf("sparse: matrix pattern differs from the analyzed one")
	}
	n := s.n
	f := &Factor{s: s, li: make([]int, s.NNZ()), lx: make([]float64, s.NNZ())}
	c := append([]int(nil), s.lp[:n]...)
	x := make([]float64, n)
	stack, mark := make([]int, n), make([]int, n)
	for i := range mark {
		mark[i] = -1
	}
	for k := 0; k < n; k++ {
		top := s.ereach(k, stack, mark)
		x[k] = 0
		for p := s.cp[k]; p < s.cp[k+1]; p++ {
			x[s.ci[p]] = a.Val[s.from[p]]
		}
		d := x[k]
		x[k] = 0
		for _, i := range stack[top:] {
			lki := x[i] / f.lx[s.lp[i]]
			x[i] = 0
			for p := s.lp[i] + 1; p < c[i]; p++ {
				x[f.li[p]] -= f.lx[p] * lki
			}
			d -= lki * lki
			p := c[i]
			c[i]++
			f.li[p], f.lx[p] = k, lki
		}
		if !(d > 0) || math.IsNaN(d) {
			return nil, fmt.Errorf("sparse: pivot %d is %g: %w", k, d, ErrNotPositiveDefinite)
		}
		p := c[k]
		c[k]++
		f.li[p], f.lx[p] = k, math.Sqrt(d)
	}
	return f, nil
}

// Solve returns the solution of A x = b into x (allocated when short).
func (f *Factor) Solve(x, b []float64) []float64 {
	s := f.s
	n := s.n
	if len(x) < n {
		x = make([]float64, n)
	}
	x = x[:n]
	y := make([]float64, n)
	for k := 0; k < n; k++ {
		y[k] = b[s.perm[k]]
	}
	// L y = Pb: column-oriented forward substitution.
	for j := 0; j < n; j++ {
		y[j] /= f.lx[s.lp[j]]
		for p := s.lp[j] + 1; p < s.lp[j+1]; p++ {
			y[f.li[p]] -= f.lx[p] * y[j]
		}
	}
	// Lᵀ z = y.
	for j := n - 1; j >= 0; j-- {
		for p := s.lp[j] + 1; p < s.lp[j+1]; p++ {
			y[j] -= f.lx[p] * y[f.li[p]]
		}
		y[j] /= f.lx[s.lp[j]]
	}
	for k := 0; k < n; k++ {
		x[s.perm[k]] = y[k]
	}
	return x
}

// SolveMany solves A X = B for many right-hand sides (columns of b, each
// of length n), in parallel; the results replace x's columns.
func (f *Factor) SolveMany(x, b [][]float64) {
	par.For(len(b), 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			x[c] = f.Solve(x[c], b[c])
		}
	})
}
