package contraction

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// weldTolerance is the distance, in unit-sphere units, below which two
// mesh vertices are one graph vertex. Files split the surface wherever a
// texture or normal seam runs (glTF characters come in dozens of pieces
// that touch along their seams); welding those copies back together is
// the first joining of the Collada paper's §3.1, at joining distance ~0.
const weldTolerance = 1e-7

// graph is the mesh graph the method contracts and simplifies (the
// Collada paper §3): the welded vertices some kept triangle uses, in
// unit-sphere coordinates; the triangles minus those on spurious edges,
// with holes closed and the sampling brought into a working range; and
// the join edges that link separate components into one connected
// graph. Join edges carry no faces, so the contraction ignores them and
// the simplification keeps them as bones between the components'
// skeletons.
type graph struct {
	pos   []linalg.Vec3 // unit-sphere positions
	tris  [][3]int
	joins [][2]int
	// The surface joints are centred in: sample points with their
	// (lumped) areas and the graph vertex each belongs to. They are the
	// graph's own vertices, or the welded mesh's when it was decimated,
	// with the apex of each hole's cap at the hole's centroid.
	sample []linalg.Vec3
	mass   []float64
	at     []int32
	// Each sample's share of its triangles' normals (a third of each
	// triangle's area): Σ area·n and Σ area·n·nᵀ, so a region's normal
	// spread tells a plate from a tube (see flat).
	nsum []linalg.Vec3
	ncov []sym3
	// What was done, for Notes.
	welded, split, pinched, unused, holes, components, subdivided, decimated int
}

// newGraph builds the graph of a mesh with unit-sphere positions pos and
// triangles tris. split ≤ 0 disables the removal of spurious edges;
// a mesh with more than maxVertices is decimated to that many, one with
// fewer than minVertices subdivided while it stays within maxVertices.
// It returns ctx's error when ctx ends.
func newGraph(ctx context.Context, pos []linalg.Vec3, tris [][3]int, split float64, minVertices, maxVertices int) (*graph, error) {
	g := &graph{}
	rep := weld(pos, weldTolerance)
	welded := make([][3]int, 0, len(tris))
	seen := make(map[[3]int]bool, len(tris))
	for _, f := range tris {
		w := [3]int{rep[f[0]], rep[f[1]], rep[f[2]]}
		if w[0] == w[1] || w[1] == w[2] || w[0] == w[2] {
			continue // a sliver between welded copies
		}
		key := w
		slices.Sort(key[:])
		if seen[key] {
			continue // the same triangle twice (a double-sided sheet)
		}
		seen[key] = true
		welded = append(welded, w)
	}
	for i, r := range rep {
		if r != i {
			g.welded++
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if split > 0 {
		welded, g.split = splitSpurious(pos, welded, split)
	}
	pos, welded, g.pinched = splitPinches(pos, welded)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(welded) == 0 {
		return nil, fmt.Errorf("contraction: no face of the mesh is left once degenerate faces are dropped and spurious edges split off")
	}
	// Keep only the vertices the triangles use: a stray point would be a
	// joint of its own, attached to nothing.
	index := make([]int, len(pos))
	for i := range index {
		index[i] = -1
	}
	for _, f := range welded {
		for _, i := range f {
			index[i] = 0
		}
	}
	var vpos, flat []linalg.Vec3
	for i := range index {
		if index[i] == 0 {
			index[i] = len(vpos)
			vpos = append(vpos, pos[i])
		}
	}
	for i, r := range rep {
		if index[r] < 0 && r == i {
			g.unused++
		}
	}
	vtris := make([][3]int, len(welded))
	for t, f := range welded {
		vtris[t] = [3]int{index[f[0]], index[f[1]], index[f[2]]}
	}
	// Joints are centred on flat, the surface with its holes closed flat
	// (see fillHoles), so every sample is a convex combination of the
	// mesh's vertices.
	vpos, vtris, g.holes, flat = fillHoles(vpos, vtris)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	g.pos, g.tris = vpos, vtris
	switch {
	case len(vpos) > maxVertices:
		var to []int32
		var err error
		if g.pos, g.tris, to, err = decimate(ctx, vpos, vtris, maxVertices); err != nil {
			return nil, err
		}
		g.decimated = len(vpos)
		g.sample, g.mass, g.at = flat, mesh.Mass(flat, vtris), to
		g.nsum, g.ncov = normalSpread(vpos, vtris)
	default:
		for len(g.pos) < minVertices && 4*len(g.pos) <= maxVertices {
			if g.holes > 0 {
				flat, _ = subdivide(flat, g.tris) // the same new vertices as g.pos gets
			}
			g.pos, g.tris = subdivide(g.pos, g.tris)
			g.subdivided++
		}
		if g.holes == 0 {
			flat = g.pos
		}
	}
	if g.sample == nil {
		g.sample, g.mass = flat, mesh.Mass(flat, g.tris)
		g.nsum, g.ncov = normalSpread(g.pos, g.tris)
		g.at = make([]int32, len(g.pos))
		for i := range g.at {
			g.at[i] = int32(i)
		}
	}
	top := mesh.NewTopology(&mesh.Mesh{Verts: g.pos, Tris: g.tris})
	g.components = top.NumComponents
	joins, err := joinComponents(ctx, g.pos, top.Component, top.NumComponents)
	if err != nil {
		return nil, err
	}
	g.joins = joins
	return g, nil
}

// weld returns, for every point, the lowest-indexed point within tol of
// it (itself when none), found through a hash grid of cell tol.
func weld(pos []linalg.Vec3, tol float64) []int {
	type cell [3]int64
	at := func(p linalg.Vec3) cell {
		return cell{int64(math.Floor(p[0] / tol)), int64(math.Floor(p[1] / tol)), int64(math.Floor(p[2] / tol))}
	}
	grid := make(map[cell][]int, len(pos))
	rep := make([]int, len(pos))
	for i, p := range pos {
		rep[i] = i
		c := at(p)
	search:
		for dx := int64(-1); dx <= 1; dx++ {
			for dy := int64(-1); dy <= 1; dy++ {
				for dz := int64(-1); dz <= 1; dz++ {
					for _, j := range grid[cell{c[0] + dx, c[1] + dy, c[2] + dz}] {
						if pos[j].Dist(p) <= tol {
							rep[i] = j
							break search
						}
					}
				}
			}
		}
		if rep[i] == i {
			grid[c] = append(grid[c], i)
		}
	}
	return rep
}

// splitSpurious drops the triangles that use a spurious edge: one longer
// than factor times the median length of the edges at each of its ends.
// Such an edge is far longer than the sampling around it on both sides —
// a bridge a modeller or a converter left between parts that should not
// touch (the Collada paper's Figure 2), which would give the skeleton a
// false loop. It returns the kept triangles and the number of spurious
// edges.
func splitSpurious(pos []linalg.Vec3, tris [][3]int, factor float64) ([][3]int, int) {
	top := mesh.NewTopology(&mesh.Mesh{Verts: pos, Tris: tris})
	med := make([]float64, len(pos))
	var buf []float64
	for i := range pos {
		buf = buf[:0]
		for _, j := range top.Neighbors(i) {
			buf = append(buf, pos[i].Dist(pos[j]))
		}
		if len(buf) == 0 {
			continue
		}
		sort.Float64s(buf)
		med[i] = buf[len(buf)/2]
	}
	bad := make(map[[2]int]bool)
	for _, e := range top.Edges {
		l := pos[e[0]].Dist(pos[e[1]])
		if l > factor*med[e[0]] && l > factor*med[e[1]] {
			bad[e] = true
		}
	}
	if len(bad) == 0 {
		return tris, 0
	}
	kept := make([][3]int, 0, len(tris))
	for _, f := range tris {
		ok := true
		for k := 0; k < 3; k++ {
			a, b := f[k], f[(k+1)%3]
			if a > b {
				a, b = b, a
			}
			ok = ok && !bad[[2]int{a, b}]
		}
		if ok {
			kept = append(kept, f)
		}
	}
	return kept, len(bad)
}

// splitPinches gives every vertex where separate fans of triangles meet
// (a pinch: a leg touching the tail in one vertex, or seams welded where
// two parts touch) one copy per fan, appended after pos. A pinch is a
// connection the surface does not have (the Collada paper's splitting,
// §3.1): kept, the skeleton would get a loop through it. It returns the
// new positions and triangles and the number of copies made.
func splitPinches(pos []linalg.Vec3, tris [][3]int) ([]linalg.Vec3, [][3]int, int) {
	vfaces := make([][]int32, len(pos))
	for t, f := range tris {
		for _, i := range f {
			vfaces[i] = append(vfaces[i], int32(t))
		}
	}
	out := tris
	copied := false
	made := 0
	fan := map[int32]int32{}
	byOther := map[int][]int32{}
	copyOf := map[int32]int{}
	for v := range vfaces {
		fs := vfaces[v]
		if len(fs) < 2 {
			continue
		}
		// Union the faces around v that share an edge through v.
		clear(fan)
		for _, f := range fs {
			fan[f] = f
		}
		find := func(f int32) int32 {
			for fan[f] != f {
				fan[f] = fan[fan[f]]
				f = fan[f]
			}
			return f
		}
		clear(byOther)
		for _, f := range fs {
			for _, w := range tris[f] {
				if w != v {
					byOther[w] = append(byOther[w], f)
				}
			}
		}
		for _, shared := range byOther {
			for _, f := range shared[1:] {
				if a, b := find(shared[0]), find(f); a != b {
					fan[max(a, b)] = min(a, b)
				}
			}
		}
		// The fan of v's first face keeps v; each other fan gets a copy.
		clear(copyOf)
		for _, f := range fs {
			r := find(f)
			if r == find(fs[0]) {
				continue
			}
			c, ok := copyOf[r]
			if !ok {
				c = len(pos)
				pos = append(pos, pos[v])
				copyOf[r] = c
				made++
			}
			if !copied {
				out = append([][3]int(nil), tris...)
				copied = true
			}
			for k := range out[f] {
				if out[f][k] == v {
					out[f][k] = c
				}
			}
		}
	}
	return pos, out, made
}
