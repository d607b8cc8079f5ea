package sparse_test

import (
	"testing"

	"github.com/meshrig/meshrig/linalg/sparse"
	"github.com/meshrig/meshrig/mesh"
)

// BenchmarkCotan40k factors a 40k-vertex cotangent Laplacian plus mass
// (the heat-diffusion system), analysis excluded.
func BenchmarkFactorCotan40k(b *testing.B) {
	m := gridMesh(b, 200)
	a := mesh.Cotan(m.Verts, m.Tris).AddDiag(mesh.Mass(m.Verts, m.Tris))
	sym, err := sparse.Analyze(a)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(sym.NNZ()), "nnz(L)")
	for b.Loop() {
		if _, err := sym.Factor(a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeCotan40k(b *testing.B) {
	m := gridMesh(b, 200)
	a := mesh.Cotan(m.Verts, m.Tris).AddDiag(mesh.Mass(m.Verts, m.Tris))
	for b.Loop() {
		if _, err := sparse.Analyze(a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSolveCotan40k(b *testing.B) {
	m := gridMesh(b, 200)
	a := mesh.Cotan(m.Verts, m.Tris).AddDiag(mesh.Mass(m.Verts, m.Tris))
	sym, _ := sparse.Analyze(a)
	f, _ := sym.Factor(a)
	rhs := make([]float64, a.N)
	rhs[7] = 1
	for b.Loop() {
		f.Solve(nil, rhs)
	}
}
