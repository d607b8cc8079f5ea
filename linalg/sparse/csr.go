package sparse

import (
	"fmt"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
)

// Triplets collects (row, column, value) entries; duplicates add up.
type Triplets struct {
	I, J []int32
	V    []float64
}

// Add appends the entry a[i][j] += v.
func (t *Triplets) Add(i, j int, v float64) {
	t.I = append(t.I, int32(i))
	t.J = append(t.J, int32(j))
	t.V = append(t.V, v)
}

// CSR is an n×n matrix in compressed sparse rows: row i holds columns
// Col[RowPtr[i]:RowPtr[i+1]] (sorted, unique) with values Val[…].
type CSR struct {
	N      int
	RowPtr []int
	Col    []int32
	Val    []float64
}

// CSR assembles an n×n matrix, summing duplicate entries. It panics on
// an index outside [0, n): assembly code owns its indices.
func (t *Triplets) CSR(n int) *CSR {
	count := make([]int, n+1)
	for _, i := range t.I {
		count[i+1]++
	}
	for i := 0; i < n; i++ {
		count[i+1] += count[i]
	}
	col := make([]int32, len(t.I))
	val := make([]float64, len(t.I))
	next := append([]int(nil), count[:n]...)
	for k, i := range t.I {
		if int(t.J[k]) >= n || t.J[k] < 0 {
			panic(fmt.Sprintf("sparse: column %d out of range %d", t.J[k], n))
		}
		col[next[i]] = t.J[k]
		val[next[i]] = t.V[k]
		next[i]++
	}
	m := &CSR{N: n, RowPtr: make([]int, n+1)}
	for i := 0; i < n; i++ {
		lo, hi := count[i], count[i+1]
		idx := make([]int, hi-lo)
		for k := range idx {
			idx[k] = lo + k
		}
		sort.Slice(idx, func(a, b int) bool { return col[idx[a]] < col[idx[b]] })
		for _, k := range idx {
			if n := len(m.Col); n > m.RowPtr[i] && m.Col[n-1] == col[k] {
				m.Val[n-1] += val[k]
				continue
			}
			m.Col = append(m.Col, col[k])
			m.Val = append(m.Val, val[k])
		}
		m.RowPtr[i+1] = len(m.Col)
	}
	return m
}

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Col) }

// At returns entry (i, j).
func (m *CSR) At(i, j int) float64 {
	row := m.Col[m.RowPtr[i]:m.RowPtr[i+1]]
	k := sort.Search(len(row), func(k int) bool { return int(row[k]) >= j })
	if k < len(row) && int(row[k]) == j {
		return m.Val[m.RowPtr[i]+k]
	}
	return 0
}

// MulVec writes m·x into dst (allocated when short), in parallel over rows.
func (m *CSR) MulVec(dst, x []float64) []float64 {
	if len(dst) < m.N {
		dst = make([]float64, m.N)
	}
	dst = dst[:m.N]
	par.For(m.N, 2048, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var s float64
			for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
				s += m.Val[k] * x[m.Col[k]]
			}
			dst[i] = s
		}
	})
	return dst
}

// AddDiag returns m + diag(d) as a new matrix with the same pattern plus
// the diagonal.
func (m *CSR) AddDiag(d []float64) *CSR {
	var t Triplets
	for i := 0; i < m.N; i++ {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			t.Add(i, int(m.Col[k]), m.Val[k])
		}
		t.Add(i, i, d[i])
	}
	return t.CSR(m.N)
}

// Symmetric reports whether m equals its transpose within tol.
func (m *CSR) Symmetric(tol float64) bool {
	for i := 0; i < m.N; i++ {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			j := int(m.Col[k])
			if d := m.Val[k] - m.At(j, i); d > tol || d < -tol {
				return false
			}
		}
	}
	return true
}
