package stretch

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/rig"
)

// TestBlockFactor: the block factor along the tree solves the damped
// system as a dense Cholesky does: a random symmetric positive definite
// matrix with the pattern (zero blocks where no vertex moves with both
// joints) of the squashing tube (a chain) and of the generated quadruped
// (21 joints branching at the hips and shoulders: fill and sibling
// blocks).
func TestBlockFactor(t *testing.T) {
	quad, err := character.Generate(character.Quadruped, character.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*rig.Rig{squashTube(t), quad} {
		blockFactorMatchesDense(t, r)
	}
}

// blockFactorMatchesDense checks the block factor of r's pattern against
// a dense Cholesky.
func blockFactorMatchesDense(t *testing.T, r *rig.Rig) {
	fr := newFitter(r, false)
	nj := r.Skeleton.Len()
	np := 6*nj + 3
	bp := fr.pattern
	// A random matrix whose zero blocks follow the skin: J with rows
	// touching only the columns of a vertex's joints' chains, and all the
	// translation's.
	rng := rand.New(rand.NewPCG(1, 2))
	var rows [][]float64
	for _, pr := range fr.sums.pairs {
		for n := 0; n < 8; n++ {
			row := make([]float64, np)
			for _, k := range []int{pr.k, pr.m} {
				for j := k; j >= 0; j = int(r.Skeleton.Joints[j].Parent) {
					for q := 0; q < 6; q++ {
						row[6*j+q] = rng.NormFloat64()
					}
				}
			}
			for q := 0; q < 3; q++ {
				row[6*nj+q] = rng.NormFloat64()
			}
			rows = append(rows, row)
		}
	}
	hd := make([]float64, np*np)
	full := mat.NewSymDense(np, nil)
	for x := 0; x < np; x++ {
		for y := 0; y <= x; y++ {
			var v float64
			for _, row := range rows {
				v += row[x] * row[y]
			}
			hd[x*np+y] = v
			if x == y {
				v += 1e-3*v + 1e-12
			}
			full.SetSym(x, y, v)
		}
	}
	g := make([]float64, np)
	for x := range g {
		g[x] = rng.NormFloat64()
	}
	var ch mat.Cholesky
	if !ch.Factorize(full) {
		t.Fatal("the dense factor failed")
	}
	var want mat.VecDense
	if err := ch.SolveVecTo(&want, mat.NewVecDense(np, g)); err != nil {
		t.Fatal(err)
	}
	f := newBlockFactor(bp)
	if !f.factor(hd, 1e-3) {
		t.Fatal("the block factor failed")
	}
	got := append([]float64(nil), g...)
	f.solve(got)
	for x := range got {
		if d := math.Abs(got[x] - want.AtVec(x)); d > 1e-8*(1+math.Abs(want.AtVec(x))) {
			t.Fatalf("variable %d: %.12g, dense %.12g", x, got[x], want.AtVec(x))
		}
	}
}
