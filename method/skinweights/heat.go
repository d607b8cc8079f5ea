package skinweights

import (
	"fmt"
	"math"
	"sync"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/linalg/sparse"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/spantree"
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
	comp []int // each vertex's connected component (by triangles)

	once sync.Once
	tree *bvh.Tree // built on the first pose solved, refitted to the others
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
	sets := spantree.NewSets(n)
	for _, t := range tris {
		sets.Union(t[0], t[1])
		sets.Union(t[0], t[2])
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = sets.Find(i)
	}
	return &HeatSolver{n: n, tris: tris, sym: sym, comp: comp}, nil
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
// so each vertex's weights sum to one. Only bones visible from the
// vertex count — the straight line to the bone's nearest point stays
// inside the surface (Baran & Popović; de Aguiar et al. §7) — and a
// vertex that sees none gets H_ii = 0, its weights diffused from its
// neighbours', unless no vertex of its component sees a bone (a
// skeleton outside a part), when the part takes its nearest bones. A
// vertex in no triangle (no mass) follows its nearest bone.
func (h *HeatSolver) Solve(pos []linalg.Vec3, segs []Segment, joints int) ([]float64, error) {
	n := h.n
	if len(pos) != n {
		return nil, fmt.Errorf("heat: %d positions for %d vertices", len(pos), n)
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("heat: no bones")
	}
	mass := mesh.Mass(pos, h.tris)
	h.once.Do(func() { h.tree = bvh.New(pos, h.tris, nil) })
	tree := h.tree.Refit(pos) // visibility is exact on any hierarchy
	nearestJoint := make([]int, n)
	diag := make([]float64, n)
	seen := make([]bool, n) // by component: some vertex sees a bone
	var mu sync.Mutex
	heat := func(i, k int, d float64) {
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
	par.For(n, 1024, func(lo, hi int) {
		dist := make([]float64, len(segs))
		var sees []int
		for i := lo; i < hi; i++ {
			nearestJoint[i] = -1
			if mass[i] == 0 {
				k, d := nearest(segs, pos[i])
				heat(i, k, d)
				continue
			}
			if k, d := nearestVisible(tree, segs, pos[i], dist); k >= 0 {
				heat(i, k, d)
				sees = append(sees, h.comp[i])
			}
		}
		mu.Lock()
		for _, c := range sees {
			seen[c] = true
		}
		mu.Unlock()
	})
	for i, j := range nearestJoint {
		if j < 0 && !seen[h.comp[i]] {
			k, d := nearest(segs, pos[i])
			heat(i, k, d)
		}
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

// nearestVisible returns the segment nearest to p among those visible
// from it, and its distance, or −1. dist is scratch of len(segs).
func nearestVisible(tree *bvh.Tree, segs []Segment, p linalg.Vec3, dist []float64) (int, float64) {
	for k, s := range segs {
		dist[k] = s.Dist(p)
	}
	for range segs {
		best := -1
		for k, d := range dist {
			if !math.IsInf(d, 1) && (best < 0 || d < dist[best]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		d := dist[best]
		r := bvh.NewRay(p, segs[best].Closest(p).Sub(p))
		// The ray leaves p's own triangles at t = 0; a crossing closer
		// than visibleTol of the way is that, not another sheet.
		if !tree.Blocked(&r, visibleTol, 1-visibleTol) {
			return best, d
		}
		dist[best] = math.Inf(1)
	}
	return -1, 0
}

// visibleTol is the share of a vertex-to-bone line at either end where a
// crossing does not hide the bone.
const visibleTol = 1e-6
