package skeletonshape

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// Plane is a mirror plane: the points x with (x − Point)·Normal = 0,
// Normal a unit vector.
type Plane struct {
	Normal, Point linalg.Vec3
	// Residual is how far the mirrored surface lies from the surface: the
	// 75th percentile over surface samples of the distance from a
	// sample's mirror image to the nearest sample, in % of the mesh's
	// bounding-box diagonal — about 0.4 for an exact mirror image (the
	// gap between samples), residualCap·100 when most of the surface has
	// no mirror. A percentile, not the mean, so a small part posed to one
	// side (a raised hand) does not hide the symmetry of the rest.
	Residual float64
}

// Reflect returns p's mirror image.
func (pl Plane) Reflect(p linalg.Vec3) linalg.Vec3 {
	return p.Sub(pl.Normal.Scale(2 * pl.Side(p)))
}

// Side returns p's signed distance to the plane.
func (pl Plane) Side(p linalg.Vec3) float64 { return p.Sub(pl.Point).Dot(pl.Normal) }

// Project returns p's foot on the plane.
func (pl Plane) Project(p linalg.Vec3) linalg.Vec3 {
	return p.Sub(pl.Normal.Scale(pl.Side(p)))
}

const (
	// samples is the surface sample count of the plane search: enough
	// that the gap between samples (which floors the residual) is well
	// under a percent of the diagonal for a character.
	samples = 12000
	// residualCap bounds one sample's mirror distance, as a fraction of
	// the diagonal, so a part that has no mirror image (a raised arm)
	// counts as a fixed penalty instead of dominating the mean.
	residualCap = 0.05
	// SymmetricResidual is the largest Plane.Residual (% of the diagonal)
	// at which Shape treats a mesh as mirror-symmetric. The shared meshes
	// that are symmetric measure 0.35–0.57 (CesiumMan, wolf, Fox,
	// elephant, camel, cow, knight), 1.2–1.4 when posed a little
	// (armadillo, lion, fertility); the horse, whose head is turned to
	// one side, 3.5, and the arm, which has none, 3.2. Generated
	// characters: 0.3–0.4 for the biped, quadruped and snake, 2.5 and
	// more for the hand. See TestSharedPlanes, TestGeneratedPlanes.
	SymmetricResidual = 1.5
)

// MirrorPlane returns the best mirror plane of m's surface: candidates
// through the surface's centroid across its three principal axes and the
// three coordinate axes, each refined by an ICP-like loop — mirror the
// samples, match each to its nearest sample, and fit the plane to the
// matched pairs (trimmed at three times the median distance): normal
// along their differences, through their midpoints — and the lowest
// residual kept. The caller decides
// from Residual whether the mesh is symmetric (SymmetricResidual). It
// returns ok false for a mesh with no area.
func MirrorPlane(m *mesh.Mesh) (Plane, bool) {
	pts := surfaceSamples(m, samples)
	d := mesh.Diagonal(m.Verts)
	if len(pts) < 8 || !(d > 0) {
		return Plane{}, false
	}
	c := mesh.Centroid(pts)
	var cov linalg.Mat3
	for _, p := range pts {
		cov = cov.Add(linalg.Outer(p.Sub(c), p.Sub(c)))
	}
	_, vec := linalg.SymEigen3(cov)
	cands := []linalg.Vec3{vec.Col(0), vec.Col(1), vec.Col(2), {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	g := newPointGrid(pts, residualCap*d/4)
	// Candidates are compared on every 8th sample, matched against all.
	var coarse []linalg.Vec3
	for i := 0; i < len(pts); i += 8 {
		coarse = append(coarse, pts[i])
	}
	best := Plane{Residual: math.Inf(1)}
	var tried []linalg.Vec3
	for _, n := range cands {
		dup := false
		for _, t := range tried {
			if math.Abs(n.Dot(t)) > 0.999 {
				dup = true
			}
		}
		if dup {
			continue
		}
		tried = append(tried, n)
		pl := refinePlane(coarse, g, Plane{Normal: n.Unit(), Point: c}, d, 8)
		if pl.Residual < best.Residual {
			best = pl
		}
	}
	return refinePlane(pts, g, best, d, 4), true
}

// refinePlane runs at most iters rounds of the ICP loop on pts (matched
// against g's points) from pl and returns the refined plane with
// its residual.
func refinePlane(pts []linalg.Vec3, g *pointGrid, pl Plane, d float64, iters int) Plane {
	cap := residualCap * d
	dist := make([]float64, len(pts))
	match := make([]int, len(pts))
	for it := 0; it < iters; it++ {
		pl.Residual = residual(pts, g, pl, d, dist, match)
		// Pairs fit the plane when their distance is under a few times
		// the median: a trimmed fit that ignores parts with no mirror.
		sorted := append([]float64(nil), dist...)
		sort.Float64s(sorted)
		keep := min(3*sorted[len(sorted)/2], cap)
		// A true mirror pair differs along the normal and has its midpoint
		// on the plane: the normal is the differences' principal
		// direction, the plane through the midpoints' mean.
		var cov linalg.Mat3
		var mid linalg.Vec3
		wsum := 0.0
		for i, p := range pts {
			if match[i] < 0 || dist[i] > keep {
				continue
			}
			q := g.pts[match[i]]
			diff := p.Sub(q)
			cov = cov.Add(linalg.Outer(diff, diff))
			mid = mid.Add(p.Add(q).Scale(0.5))
			wsum++
		}
		if wsum < 8 {
			break
		}
		_, vec := linalg.SymEigen3(cov)
		n := vec.Col(0).Unit()
		if n.Dot(pl.Normal) < 0 {
			n = n.Scale(-1)
		}
		next := Plane{Normal: n, Point: mid.Scale(1 / wsum)}
		if next.Normal.Dot(pl.Normal) > 1-1e-12 && next.Point.Dist(pl.Point) < 1e-9*d {
			break
		}
		pl = next
	}
	pl.Residual = residual(pts, g, pl, d, dist, match)
	return pl
}

// residual fills each of pts' mirror distance to g's points (capped) and
// match (an index into g.pts, -1 beyond the cap) and returns their 75th
// percentile in % of d.
func residual(pts []linalg.Vec3, g *pointGrid, pl Plane, d float64, dist []float64, match []int) float64 {
	cap := residualCap * d
	for i, p := range pts {
		match[i], dist[i] = g.nearest(pl.Reflect(p), cap)
	}
	sorted := append([]float64(nil), dist...)
	sort.Float64s(sorted)
	return 100 * sorted[3*len(sorted)/4] / d
}
