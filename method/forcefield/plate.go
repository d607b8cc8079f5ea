package forcefield

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// dropPlates clears the minima that lie in plates — ears, fins, wings:
// solid much thinner than it is wide in two directions — and the tips
// there, so a second thinning pass retracts the curves that ended on
// them. It returns how many minima it cleared.
//
// Thinning leaves a plate's medial sheet as a tree of curves whose shape
// follows the order of removal, not the plate, and the force in a plate
// has minima all over (its field is nearly flat across the sheet), so
// the paper's rules would give an elephant's ear a dozen joints. The
// paper's own answer for a disk is one joint (§5: "we produce only one
// joint in disk-like model"); here a plate that hangs from other parts
// moves with the part it hangs from, as an artist's rig leaves ears and
// fins to the head or the body: a piece of the thinned set that holds a
// minimum outside plates loses all its plate minima, and a piece made
// only of plate (a disk on its own) keeps its lowest-force one.
//
// Which kept voxels lie in plates: those that pass the strict test of
// spread (a disk of interior around them), and, grown from them, those
// within two distances (two voxels at least) of a plate voxel that pass
// a relaxed one — where an ear thickens and curves towards its root the
// strict test fails while the curves there still belong to the ear.
// Each test must hold in two views of the ball: all the interior in it,
// and only the piece joined to the voxel inside it. The whole ball
// takes parts side by side for one (a row of fingers looks like a
// plate); the piece alone loses what the ball's edge cuts off from a
// body (a trunk hanging from the head leaves the belly looking thinner).
// Each can take a part that is no plate for one, in its own way, so a
// plate is what both see.
//
// Tips stay only where pass one ended a curve outside plates: an end that
// appears in pass two, once a plate's curves are gone, is where a
// retracting curve has reached, not the end of a limb.
func (f *field) dropPlates(keep, minima, tips []bool) int {
	n := len(f.vox)
	var kept []int32
	for i := range f.vox {
		if keep[i] {
			kept = append(kept, int32(i))
		}
	}
	strict := make([]bool, n)
	relaxed := make([]bool, n)
	par.For(len(kept), 16, func(lo, hi int) {
		for _, i := range kept[lo:hi] {
			strict[i], relaxed[i] = true, true
			for _, piece := range [2]bool{false, true} {
				l, u := f.spread(i, piece)
				spread := l[1] > 1.5*u
				strict[i] = strict[i] && spread && l[2] < 0.75*u && l[2] < l[1]/4
				relaxed[i] = relaxed[i] && spread && l[2] < 0.6*l[1]
			}
		}
	})
	region := f.grow(keep, kept, strict, relaxed)

	piece := f.pieces(keep)
	solid := map[int32]bool{}
	lowest := map[int32]int32{}
	for _, i := range kept {
		if !minima[i] {
			continue
		}
		p := piece[i]
		if !region[i] {
			solid[p] = true
			continue
		}
		if l, ok := lowest[p]; !ok || f.less(i, l) {
			lowest[p] = i
		}
	}
	dropped := 0
	for _, i := range kept {
		if minima[i] && region[i] && (solid[piece[i]] || lowest[piece[i]] != i) {
			minima[i] = false
			dropped++
		}
	}
	for i := range tips {
		if tips[i] {
			deg := 0
			f.eachKept(keep, i, func(int32) { deg++ })
			tips[i] = keep[i] && deg == 1 && !region[i]
		}
	}
	return dropped
}

// grow returns the plate region: the strict voxels, and the relaxed ones
// reached from them in steps no longer than two distances to the surface
// of the voxel stepped from (two voxel edges at least), and no more than
// twice as thick as the strict voxel the growth started from. The steps
// are not limited to neighbours because the thinned set near an ear's
// root is broken into separate stubs; the thickness limit keeps the
// region out of the part the plate stands on, whose medial voxels see
// the plate in their ball and pass the relaxed test.
func (f *field) grow(keep []bool, kept []int32, strict, relaxed []bool) []bool {
	g := f.g
	region := make([]bool, len(f.vox))
	// thick is the most a voxel grown from a strict one may have as its
	// distance: twice the strict voxel's (a voxel at least).
	thick := make([]float64, len(f.vox))
	var stack []int32
	for _, i := range kept {
		if strict[i] {
			region[i] = true
			thick[i] = 2 * max(f.dist[i], g.h)
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reach := 2 * max(f.dist[v], g.h)
		cells := int(reach / g.h)
		r2 := (reach / g.h) * (reach / g.h)
		x0, y0, z0 := g.coords(int(f.vox[v]))
		for z := max(0, z0-cells); z <= min(g.n[2]-1, z0+cells); z++ {
			for y := max(0, y0-cells); y <= min(g.n[1]-1, y0+cells); y++ {
				for x := max(0, x0-cells); x <= min(g.n[0]-1, x0+cells); x++ {
					j := f.at[g.index(x, y, z)]
					if j < 0 || !keep[j] || region[j] || !relaxed[j] || f.dist[j] > thick[v] {
						continue
					}
					dx, dy, dz := x-x0, y-y0, z-z0
					if float64(dx*dx+dy*dy+dz*dz) <= r2 {
						region[j], thick[j] = true, thick[v]
						stack = append(stack, j)
					}
				}
			}
		}
	}
	return region
}

// spread measures the shape of the solid around interior voxel i: the
// eigenvalues λ₁ ≥ λ₂ ≥ λ₃ of the covariance of the interior voxel
// centres within ρ = 4s of it, s = max(d, h) (d its distance to the
// surface, h the voxel edge), in voxels², with u = s² = (ρ/4)². The
// middle of a plate of half-thickness d sees a disk: λ₁ = λ₂ = 4u, λ₃ =
// u/3; a tube of radius d sees a rod: λ₁ = 16u/3, λ₂ = λ₃ = u/4; a lump
// sees the whole ball (16u/5 each), and the middle of a body larger than
// the ball sees its own spread in all three directions. So a plate is
// spread in two directions (λ₂ > 1.5u) and thin in the third. Fewer
// than four voxels in the ball give zeros: no spread. With piece, only
// the interior joined to i inside the ball counts (ballShape).
func (f *field) spread(i int32, piece bool) (l linalg.Vec3, u float64) {
	s := max(f.dist[i], f.g.h)
	u = (s / f.g.h) * (s / f.g.h)
	l, _ = f.ballShape(i, 4*s, 8, piece)
	return l, u
}

// pieces labels the 26-connected components of the kept voxels (-1 for
// voxels not kept).
func (f *field) pieces(keep []bool) []int32 {
	lab := make([]int32, len(f.vox))
	for i := range lab {
		lab[i] = -1
	}
	var n int32
	var stack []int32
	for i := range f.vox {
		if !keep[i] || lab[i] >= 0 {
			continue
		}
		lab[i] = n
		stack = append(stack[:0], int32(i))
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.eachKept(keep, int(v), func(j int32) {
				if lab[j] < 0 {
					lab[j] = n
					stack = append(stack, j)
				}
			})
		}
		n++
	}
	return lab
}
