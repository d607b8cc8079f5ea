// Package sparse holds sparse matrices and the solvers meshrig's mesh
// computations need (heat-diffusion weights, Laplacian contraction):
// triplet assembly into compressed sparse rows, matrix–vector products,
// a fill-reducing nested-dissection ordering, a sparse Cholesky
// factorization whose symbolic analysis is computed once and reused for
// every refactorization with the same pattern, and preconditioned
// conjugate gradients as a fallback.
//
//	var t sparse.Triplets
//	t.Add(0, 0, 4); t.Add(0, 1, -1); t.Add(1, 0, -1); t.Add(1, 1, 4)
//	a := t.CSR(2)
//	sym, _ := sparse.Analyze(a)
//	f, _ := sym.Factor(a)
//	x := f.Solve(nil, []float64{1, 2})
package sparse
