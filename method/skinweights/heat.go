package skinweights

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/linalg/sparse"
	"github.com/meshrig/meshrig/mesh"
)

// HeatSolver computes bone heat weights (Baran & Popović 2007, the
// weights of Blender's "automatic weights") on one mesh connectivity.
// The sparse symbolic analysis depends only on the triangles, so it is
// done once and shared by every Solve — by every pose of an animation.
// A HeatSolver may be used from several goroutines at once.
type HeatSolver struct {
	n    int
	tris [][3]int
	sym  *sparse.Symbolic
}

// NewHeatSolver analyzes the system of n vertices and the triangles tris
// (indices in [0, n)).
func NewHeatSolver(n int, tris [][3]int) (*HeatSolver, error) {
	// The pattern of L + diag: cotangent entries are stored even when zero.
	pattern := mesh.CotanPositive(make([]linalg.Vec3, n), tris).AddDiag(make([]float64, n))
	sym, err := sparse.Analyze(pattern)
	if err != nil {
		return nil, err
	}
	return &HeatSolver{n: n, tris: tris, sym: sym}, nil
}

// minDist bounds the vertex-to-bone distance from below: a vertex on a
// bone gets a strong but finite pull. Positions are expected in
// unit-sphere units (method.UnitSphere), where it is 1e-4 of the radius.
const minDist = 1e-4

// Solve returns the raw heat weights of the n vertices at positions pos
// for bones segs whose Joint is in [0, joints): n·joints values, vertex i's
// weight for joint j at i·joints + j. With L the cotangent Laplacian
// (mesh.CotanPositive: robust on obtuse triangles) and M the lumped mass
// at pos, it solves for every joint b
//
//	(L + M H) w_b = M H p_b,
//
// the mass-weighted form of (−Δ + H) w = H p, where H_ii = 1/d_i², d_i
// the distance from vertex i to its nearest segment, and p_b marks the
// vertices whose nearest segment belongs to b. Σ_b p_b = 1 and L·1 = 0,
// so each vertex's weights sum to one. Bones are not tested for
// visibility from the vertex (Baran & Popović do): the nearest counts.
// A vertex in no triangle (no mass) follows its nearest bone.
func (h *HeatSolver) Solve(pos []linalg.Vec3, segs []Segment, joints int) ([]float64, error) {
	n := h.n
	if len(pos) != n {
		return nil, fmt.Errorf("heat: %d positions for %d vertices", len(pos), n)
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("heat: no bones")
	}
	mass := mesh.Mass(pos, h.tris)
	nearestJoint := make([]int, n)
	diag := make([]float64, n)
	par.For(n, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k, d := nearest(segs, pos[i])
			nearestJoint[i] = segs[k].Joint
			d = math.Max(d, minDist)
			m := mass[i]
			if m == 0 {
				// No triangle gives this vertex area: a tiny mass keeps
				// the system definite and its row pins it to its bone.
				m = 1e-12
			}
			diag[i] = m / (d * d)
		}
	})
	a := mesh.CotanPositive(pos, h.tris).AddDiag(diag)
	// One right-hand side per joint that owns a nearest vertex; the
	// others' weights are zero.
	var owners []int
	rhs := make([][]float64, joints)
	for i, j := range nearestJoint {
		if j < 0 || j >= joints {
			return nil, fmt.Errorf("heat: bone of joint %d, want joints in [0, %d)", j, joints)
		}
		if rhs[j] == nil {
			rhs[j] = make([]float64, n)
			owners = append(owners, j)
		}
		rhs[j][i] = diag[i]
	}
	b := make([][]float64, len(owners))
	for k, j := range owners {
		b[k] = rhs[j]
	}
	x := make([][]float64, len(owners))
	if fac, err := h.sym.Factor(a); err == nil {
		fac.SolveMany(x, b)
	} else {
		// Cannot happen for this M-matrix but on broken positions (a NaN
		// frame): fall back to conjugate gradients, which reports it.
		errs := make([]error, len(owners))
		par.For(len(owners), 1, func(lo, hi int) {
			for k := lo; k < hi; k++ {
				x[k], _, errs[k] = sparse.CG(a, b[k], nil, 1e-10, 20*n)
			}
		})
		for k, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("heat: joint %d: %w", owners[k], err)
			}
		}
	}
	w := make([]float64, n*joints)
	for k, j := range owners {
		for i, v := range x[k] {
			w[i*joints+j] = v
		}
	}
	return w, nil
}
