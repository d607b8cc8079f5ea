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
// The sparse symbolic analysis and the ray index depend only on the
// triangles, so they are made once and shared by every Solve — by every
// pose of an animation. A HeatSolver may be used from several goroutines
// at once.
type HeatSolver struct {
	n    int
	tris [][3]int
	sym  *sparse.Symbolic
	vis  *visibility
}

// NewHeatSolver analyzes the system of the mesh with reference positions
// rest and triangles tris (indices in [0, len(rest))); Solve takes any
// pose of it.
func NewHeatSolver(rest []linalg.Vec3, tris [][3]int) (*HeatSolver, error) {
	n := len(rest)
	// The pattern of L + diag: cotangent entries are stored even when zero.
	pattern := mesh.CotanPositive(make([]linalg.Vec3, n), tris).AddDiag(make([]float64, n))
	sym, err := sparse.Analyze(pattern)
	if err != nil {
		return nil, err
	}
	return &HeatSolver{n: n, tris: tris, sym: sym, vis: newVisibility(rest, tris)}, nil
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
// the distance from vertex i to the nearest segment visible from it (see
// visibility; none visible: H_ii = 0, the vertex's weights diffuse from
// its neighbours'), and p_b marks the vertices whose nearest visible
// segment belongs to b. Σ_b p_b = 1 where H_ii > 0 and L·1 = 0, so each
// vertex's weights sum to one. A vertex in no triangle (no mass) follows
// its nearest bone.
func (h *HeatSolver) Solve(pos []linalg.Vec3, segs []Segment, joints int) ([]float64, error) {
	n := h.n
	if len(pos) != n {
		return nil, fmt.Errorf("heat: %d positions for %d vertices", len(pos), n)
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("heat: no bones")
	}
	mass := mesh.Mass(pos, h.tris)
	diag := make([]float64, n)
	nearestJoint, dist := h.vis.nearest(pos, mass, segs)
	for i, k := range nearestJoint {
		if k < 0 {
			continue
		}
		d := math.Max(dist[i], minDist)
		m := mass[i]
		if m == 0 {
			// No triangle gives this vertex area: a tiny mass keeps the
			// system definite and its row pins it to its bone.
			m = 1e-12
		}
		diag[i] = m / (d * d)
		nearestJoint[i] = segs[k].Joint
	}
	a := mesh.CotanPositive(pos, h.tris).AddDiag(diag)
	// One right-hand side per joint that owns a nearest vertex; the
	// others' weights are zero.
	var owners []int
	rhs := make([][]float64, joints)
	for i, j := range nearestJoint {
		if j < 0 {
			continue // sees no bone: no heat source
		}
		if j >= joints {
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
