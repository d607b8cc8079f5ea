package sparse_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/linalg/sparse"
	"github.com/meshrig/meshrig/mesh"
)

// spd returns a random sparse SPD matrix: a random graph Laplacian plus a
// positive diagonal.
func spd(r *rand.Rand, n int) *sparse.CSR {
	var t sparse.Triplets
	for i := 0; i < n; i++ {
		for e := 0; e < 3; e++ {
			j := r.IntN(n)
			if j == i {
				continue
			}
			w := r.Float64()
			t.Add(i, j, -w)
			t.Add(j, i, -w)
			t.Add(i, i, w)
			t.Add(j, j, w)
		}
		t.Add(i, i, 0.1+r.Float64())
	}
	return t.CSR(n)
}

func dense(a *sparse.CSR) *mat.Dense {
	d := mat.NewDense(a.N, a.N, nil)
	for i := 0; i < a.N; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			d.Set(i, int(a.Col[k]), a.Val[k])
		}
	}
	return d
}

func TestCholeskyMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	for _, n := range []int{1, 5, 40, 300} {
		a := spd(r, n)
		if !a.Symmetric(0) {
			t.Fatal("test matrix not symmetric")
		}
		sym, err := sparse.Analyze(a)
		if err != nil {
			t.Fatal(err)
		}
		f, err := sym.Factor(a)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = r.NormFloat64()
		}
		x := f.Solve(nil, b)
		var want mat.VecDense
		if err := want.SolveVec(dense(a), mat.NewVecDense(n, b)); err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if math.Abs(x[i]-want.AtVec(i)) > 1e-9*(1+math.Abs(want.AtVec(i))) {
				t.Fatalf("n=%d: x[%d] = %v, dense %v", n, i, x[i], want.AtVec(i))
			}
		}
		// Refactor with new values on the same pattern, reusing the analysis.
		b2 := a.AddDiag(make([]float64, n))
		for k := range b2.Val {
			b2.Val[k] *= 2
		}
		f2, err := sym.Factor(b2)
		if err != nil {
			t.Fatal(err)
		}
		x2 := f2.Solve(nil, b)
		for i := range x2 {
			if math.Abs(2*x2[i]-x[i]) > 1e-9*(1+math.Abs(x[i])) {
				t.Fatalf("refactored solve off at %d", i)
			}
		}
	}
}

func TestCGMatchesCholesky(t *testing.T) {
	r := rand.New(rand.NewPCG(53, 54))
	a := spd(r, 500)
	b := make([]float64, 500)
	for i := range b {
		b[i] = r.NormFloat64()
	}
	x, it, err := sparse.CG(a, b, nil, 1e-12, 2000)
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := sparse.Analyze(a)
	f, _ := sym.Factor(a)
	want := f.Solve(nil, b)
	for i := range x {
		if math.Abs(x[i]-want[i]) > 1e-8*(1+math.Abs(want[i])) {
			t.Fatalf("CG x[%d] = %v, Cholesky %v (after %d iterations)", i, x[i], want[i], it)
		}
	}
}

func TestNotPositiveDefinite(t *testing.T) {
	var tr sparse.Triplets
	tr.Add(0, 0, 1)
	tr.Add(0, 1, 2)
	tr.Add(1, 0, 2)
	tr.Add(1, 1, 1)
	a := tr.CSR(2)
	sym, _ := sparse.Analyze(a)
	if _, err := sym.Factor(a); !errors.Is(err, sparse.ErrNotPositiveDefinite) {
		t.Fatalf("indefinite matrix: %v", err)
	}
	other := spd(rand.New(rand.NewPCG(1, 1)), 2)
	if _, err := sym.Factor(other); err == nil && other.NNZ() != a.NNZ() {
		t.Fatal("a different pattern was accepted")
	}
}

func TestOrderIsAPermutationAndReducesFill(t *testing.T) {
	m := gridMesh(t, 60)
	a := mesh.Cotan(m.Verts, m.Tris).AddDiag(mesh.Mass(m.Verts, m.Tris))
	perm := sparse.Order(a)
	seen := make([]bool, a.N)
	for _, p := range perm {
		if seen[p] {
			t.Fatalf("vertex %d ordered twice", p)
		}
		seen[p] = true
	}
	if len(perm) != a.N {
		t.Fatalf("%d of %d ordered", len(perm), a.N)
	}
	sym, _ := sparse.Analyze(a)
	// A 60×60 grid in natural order has a band of 60: ~60·n nonzeros.
	if nnz := sym.NNZ(); nnz > 40*a.N { // natural order: a band of 61, ~61 per row
		t.Errorf("factor has %d nonzeros (%d per row): ordering does not reduce fill", nnz, nnz/a.N)
	}
	t.Logf("grid %d: %d nonzeros in L (%.1f per row)", a.N, sym.NNZ(), float64(sym.NNZ())/float64(a.N))
}

// gridMesh is an n×n grid of squares split into triangles.
func gridMesh(t testing.TB, n int) *mesh.Mesh {
	var v []linalg.Vec3
	var f [][]int
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			v = append(v, linalg.Vec3{float64(x), float64(y), 0.1 * math.Sin(float64(x*y))})
			if x > 0 && y > 0 {
				a, b, c, d := (y-1)*n+x-1, (y-1)*n+x, y*n+x, y*n+x-1
				f = append(f, []int{a, b, c}, []int{a, c, d})
			}
		}
	}
	m, err := mesh.New(v, f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCotanLaplacian(t *testing.T) {
	m := testrig.Tube(t, 2, linalg.Vec3{}).Mesh
	l := mesh.Cotan(m.Verts, m.Tris)
	if !l.Symmetric(1e-12) {
		t.Fatal("cotan Laplacian not symmetric")
	}
	// Rows sum to zero: constants are in the kernel.
	ones := make([]float64, l.N)
	for i := range ones {
		ones[i] = 1
	}
	for i, v := range l.MulVec(nil, ones) {
		if math.Abs(v) > 1e-9 {
			t.Fatalf("row %d sums to %v", i, v)
		}
	}
	// Linear functions are harmonic inside a flat grid.
	g := gridMesh(t, 10)
	for i := range g.Verts {
		g.Verts[i][2] = 0
	}
	lg := mesh.Cotan(g.Verts, g.Tris)
	x := make([]float64, lg.N)
	for i, p := range g.Verts {
		x[i] = 2*p[0] - p[1]
	}
	y := lg.MulVec(nil, x)
	for i, p := range g.Verts {
		if p[0] > 0 && p[1] > 0 && p[0] < 9 && p[1] < 9 && math.Abs(y[i]) > 1e-9 {
			t.Fatalf("interior vertex %d: Lx = %v for a linear x", i, y[i])
		}
	}
}
