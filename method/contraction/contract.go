package contraction

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// maxAttraction bounds W_H,i/W_H⁰ = √(A⁰ᵢ/Aᵗᵢ) where a vertex's one-ring
// has collapsed to (nearly) nothing: such a vertex is held where it is
// without an infinite weight (Au et al.'s implementation: 10⁴).
const maxAttraction = 1e4

// maxContraction bounds W_L/W_L⁰ (Au et al.'s implementation caps W_L at
// 2048): past it, iterations only fold the needles left.
const maxContraction = 2048

// minShrink is the least relative loss of area an iteration must bring:
// once the surface stops shrinking, the weights have taken the
// contraction as far as they can, and a step that grows it (folded
// needles) is discarded.
const minShrink = 0.01

// contraction is the result of contract: positions and how it ended.
type contraction struct {
	pos        []linalg.Vec3
	iterations int
	ratio      float64 // final volume (or area) over the original
	volume     bool    // whether ratio is of volume
}

// contract shrinks the graph's surface onto its curve skeleton by
// constrained Laplacian smoothing (Au et al. 2008 §3; the Collada paper
// §4, Eq. 2): each iteration t solves
//
//	[W_L·L; W_H] V' = [0; W_H·V]
//
// in the least-squares sense (see solver), with L the cotangent
// Laplacian of the current positions (Eq. 1, recomputed every
// iteration). Then W_L grows by s_L and W_H,i = W_H⁰·√(A⁰ᵢ/Aᵗᵢ) from the
// one-ring areas, so vertices whose surroundings have already collapsed
// stay put while the rest catches up. It stops when the enclosed volume
// (the area for a surface enclosing none) is below opt.Stop of the
// original, when the area no longer shrinks, or after opt.MaxIterations.
func contract(ctx context.Context, g *graph, opt Options) (*contraction, error) {
	n := len(g.pos)
	pos := append([]linalg.Vec3(nil), g.pos...)
	area0 := ringAreas(pos, g.tris)
	total := area(pos, g.tris)
	if !(total > 0) {
		return nil, fmt.Errorf("contraction: the mesh's faces have no area")
	}
	wl0 := 1 / (10 * math.Sqrt(total/float64(len(g.tris))))
	wl := opt.ContractionWeight * wl0
	wh := make([]float64, n)
	for i := range wh {
		wh[i] = opt.AttractionWeight
	}
	closed := isClosed(g.tris)
	m0 := volume(pos, g.tris)
	if !closed || !(m0 > 1e-9*math.Pow(total, 1.5)) {
		// An open surface, or a closed one enclosing no volume (a flat
		// double-sided sheet): judge by area.
		closed, m0 = false, total
	}
	measure := func(p []linalg.Vec3) float64 {
		if closed {
			return volume(p, g.tris)
		}
		return area(p, g.tris)
	}
	res := &contraction{pos: pos, ratio: 1, volume: closed}
	lap := newLaplacian(n, g.tris)
	sol := newSolver(lap)
	lastArea := total
	for it := 0; it < opt.MaxIterations && res.ratio > opt.Stop; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		opt.Progress.Report("contraction", it, opt.MaxIterations)
		lap.update(pos)
		next, _, err := sol.step(pos, wl, wh)
		if err != nil {
			return nil, fmt.Errorf("contraction: iteration %d: %w", it+1, err)
		}
		for i := range next {
			if !next[i].IsFinite() {
				return nil, fmt.Errorf("contraction: iteration %d moved graph vertex %d to %v", it+1, i, next[i])
			}
		}
		ar := area(next, g.tris)
		if !(ar < lastArea*(1-minShrink)) {
			break
		}
		lastArea = ar
		pos = next
		res.pos, res.ratio, res.iterations = pos, measure(pos)/m0, it+1
		wl = math.Min(wl*opt.ContractionScale, maxContraction*wl0)
		at := ringAreas(pos, g.tris)
		par.For(n, 4096, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				r := maxAttraction
				if at[i] > 0 {
					r = math.Min(maxAttraction, math.Sqrt(area0[i]/at[i]))
				}
				wh[i] = opt.AttractionWeight * r
			}
		})
	}
	opt.Progress.Report("contraction", opt.MaxIterations, opt.MaxIterations)
	return res, nil
}

// ringAreas returns the area of the triangles around each vertex.
func ringAreas(pos []linalg.Vec3, tris [][3]int) []float64 {
	a := make([]float64, len(pos))
	for t, ar := range mesh.FaceAreas(pos, tris) {
		for _, i := range tris[t] {
			a[i] += ar
		}
	}
	return a
}

// area returns the total area of the triangles.
func area(pos []linalg.Vec3, tris [][3]int) float64 {
	return par.Sum(len(tris), 8192, func(lo, hi int) float64 {
		var s float64
		for _, f := range tris[lo:hi] {
			s += pos[f[1]].Sub(pos[f[0]]).Cross(pos[f[2]].Sub(pos[f[0]])).Norm() / 2
		}
		return s
	})
}

// volume returns the enclosed volume by the divergence theorem, |Σ
// v₀·(v₁×v₂)|/6; orientation-consistent closed surfaces give the true
// volume whatever the origin.
func volume(pos []linalg.Vec3, tris [][3]int) float64 {
	return math.Abs(par.Sum(len(tris), 8192, func(lo, hi int) float64 {
		var s float64
		for _, f := range tris[lo:hi] {
			s += pos[f[0]].Dot(pos[f[1]].Cross(pos[f[2]]))
		}
		return s
	})) / 6
}

// isClosed reports whether every edge has at least two triangles.
func isClosed(tris [][3]int) bool {
	count := make(map[[2]int]int, 3*len(tris)/2)
	for _, f := range tris {
		for k := 0; k < 3; k++ {
			a, b := f[k], f[(k+1)%3]
			if a > b {
				a, b = b, a
			}
			count[[2]int{a, b}]++
		}
	}
	for _, c := range count {
		if c < 2 {
			return false
		}
	}
	return true
}
