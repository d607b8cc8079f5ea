package contraction

import "github.com/meshrig/meshrig/linalg"

// A plate — an elephant's ear, a fin, the flat cap of a cylinder —
// contracts to a sheet, not a curve (Au et al. 2008 note the medial
// sheets of flat regions), and connectivity surgery cuts that sheet
// into a tree whose branches follow the order of collapses rather than
// any limb; the thinning then spends joints on them. A node whose
// mesh region is a plate seen from both sides is recognised by its
// normals: they lie mostly along one axis (the share of Σ area·n·nᵀ on
// its largest eigenvalue is at least flatAxis) and both ways, so their
// area-weighted sum mostly cancels (|Σ area·n| at most flatBalance of
// the area). One side of a plate alone, a limb's tip or sole, fails
// the balance; a tube fails the axis (its normals go round). Collapses
// out of such a node cost flatDiscount of their price, so a plate is
// merged into few nodes before the curve skeleton loses any.
const (
	flatAxis     = 0.7
	flatBalance  = 0.35
	flatDiscount = 0.01
)

// sym3 is a symmetric 3×3 matrix: xx, yy, zz, xy, xz, yz.
type sym3 [6]float64

func (a *sym3) add(b *sym3) {
	for k := range a {
		a[k] += b[k]
	}
}

// normalSpread returns, per vertex, a third of Σ area·n and of
// Σ area·n·nᵀ over its triangles.
func normalSpread(pos []linalg.Vec3, tris [][3]int) ([]linalg.Vec3, []sym3) {
	sum := make([]linalg.Vec3, len(pos))
	cov := make([]sym3, len(pos))
	for _, f := range tris {
		n := pos[f[1]].Sub(pos[f[0]]).Cross(pos[f[2]].Sub(pos[f[0]])).Scale(1.0 / 6)
		a := n.Norm() // a third of the area
		if !(a > 0) {
			continue
		}
		u := n.Scale(1 / a)
		m := sym3{a * u[0] * u[0], a * u[1] * u[1], a * u[2] * u[2], a * u[0] * u[1], a * u[0] * u[2], a * u[1] * u[2]}
		for _, i := range f {
			sum[i] = sum[i].Add(n)
			cov[i].add(&m)
		}
	}
	return sum, cov
}

// flat reports whether a region with normal sums sum and cov (see
// normalSpread) is a plate seen from both sides.
func flat(sum linalg.Vec3, cov *sym3) bool {
	a := cov[0] + cov[1] + cov[2] // the area: n·n = 1
	if !(a > 0) || sum.Norm() > flatBalance*a {
		return false
	}
	ev, _ := linalg.SymEigen3(linalg.Mat3{{cov[0], cov[3], cov[4]}, {cov[3], cov[1], cov[5]}, {cov[4], cov[5], cov[2]}})
	return ev[0] >= flatAxis*a
}
