package forcefield

import (
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
)

// The paper stops at the grouped joints (§3.3) and says nothing of where
// a limb's end joint goes or how many joints a chain keeps; an animation
// skeleton needs both. The refinements below run on the grouped graph,
// in this order, each on the bones' thinned curves (graph.paths):
//
//  1. extendTips: an end joint sits where thinning stopped, a radius or
//     more short of the tip; a joint goes out along the curve's direction
//     to a voxel short of the surface, so the last bone reaches the
//     extremity (a foot, a snout, a tail's end).
//  2. exits: where a thinner part leaves a thick one (a leg the body, the
//     neck the chest), the chain leaves the sphere of the fork's group; a
//     joint there is the part's root — hip, shoulder, neck base — which
//     grouping swallowed into the body's group.
//  3. bend: a chain that bends between two joints (a knee, an elbow, a
//     neck that rises from the chest) gets a joint at its sharpest bend.

// extendTips adds a joint beyond each end joint of gr: along the
// direction of the last two radii (two voxels at least) of its curve, to
// a voxel short of the first surface hit, when that lies more than the
// end's sphere away (else the end joint itself moves there). Ends within
// two voxels of the surface stay: that close, the direction is noise.
// Plates have no curve ends (dropPlates), so every end here is a limb's.
func (gr *graph) extendTips(b *bvh.Tree, h float64) {
	deg := gr.degree()
	n := len(gr.edges)
	for k := 0; k < n; k++ {
		for side := 0; side < 2; side++ {
			j := gr.edges[k][side]
			if deg[j] != 1 {
				continue
			}
			pl := gr.full(k)
			if side == 1 {
				pl = pl.reversed()
			}
			reach := max(2*gr.radius[j], 2*h)
			back := pl.pts[len(pl.pts)-1]
			var s float64
			for i := 1; i < len(pl.pts); i++ {
				s += pl.pts[i].Dist(pl.pts[i-1])
				if s >= reach {
					back = pl.pts[i]
					break
				}
			}

			d := gr.joints[j].Sub(back)
			if d.Norm() == 0 {
				continue
			}
			d = d.Scale(1 / d.Norm())
			r := bvh.NewRay(gr.joints[j], d)
			t := b.Closest(&r)
			if math.IsInf(t, 1) || t < 2*h {
				continue
			}
			tip := gr.joints[j].Add(d.Scale(t - h))
			if t-h <= gr.radius[j] {
				gr.joints[j] = tip
				continue
			}
			nj := gr.add(tip, h)
			gr.edges = append(gr.edges, [2]int{j, nj})
			gr.paths = append(gr.paths, polyline{})
			deg[j]++
			deg = append(deg, 1)
		}
	}
}

// exits adds, on each bone of a fork (a joint with three bones or more)
// whose group's sphere is at least two voxels wide, a joint where the
// bone's curve first leaves that sphere, unless the bone's other joint
// lies within 1.5 radii of the fork anyway. Spheres of a voxel or so are
// forks of thin parts (toes, fingers) where the sphere is the voxel
// grid's, not a body's.
//
// Bones of one fork often run along the same curve out of its sphere (a
// neck carrying the head and both ears, a pelvis the legs and the tail
// pass through): they leave it at the same voxel, and share the joint
// there, as they share one that already stands there, rather than each
// get a copy of it (coincident joints, and loops between them that the
// shape does not have).
func (gr *graph) exits() {
	deg := gr.degree()
	at := make(map[linalg.Vec3]int, len(gr.joints))
	for j, p := range gr.joints {
		if _, ok := at[p]; !ok {
			at[p] = j
		}
	}
	n := len(gr.edges)
	for k := 0; k < n; k++ {
		for side := 0; side < 2; side++ {
			e := gr.edges[k]
			J := e[side]
			r := gr.radius[J]
			if deg[J] < 3 || r < 2*gr.step {
				continue
			}
			pl := gr.full(k)
			if side == 1 {
				pl = pl.reversed()
			}
			o := pl.pts[0]
			if pl.pts[len(pl.pts)-1].Dist(o) < 1.5*r {
				continue
			}
			cut := -1
			for i := 1; i < len(pl.pts)-1; i++ {
				if pl.pts[i].Dist(o) >= r {
					cut = i
					break
				}
			}
			if cut < 0 {
				continue
			}
			nj, ok := at[pl.pts[cut]]
			if !ok {
				nj = gr.add(pl.pts[cut], pl.rad[cut])
				at[pl.pts[cut]] = nj
				deg = append(deg, 0)
			}
			gr.edges[k] = [2]int{J, nj}
			gr.paths[k] = pl.sub(1, cut)
			gr.edges = append(gr.edges, [2]int{nj, e[1-side]})
			gr.paths = append(gr.paths, pl.sub(cut+1, len(pl.pts)-1))
			deg[nj] += 2
		}
	}
	gr.dropRepeated()
}

// dropRepeated removes bones that repeat another (the same two joints,
// either way round) and bones from a joint to itself, with their curves.
func (gr *graph) dropRepeated() {
	seen := make(map[[2]int]bool, len(gr.edges))
	k := 0
	for i, e := range gr.edges {
		key := [2]int{min(e[0], e[1]), max(e[0], e[1])}
		if e[0] == e[1] || seen[key] {
			continue
		}
		seen[key] = true
		gr.edges[k], gr.paths[k] = e, gr.paths[i]
		k++
	}
	gr.edges, gr.paths = gr.edges[:k], gr.paths[:k]
}

// bend splits every bone at the sharpest bends of its curve, recursively
// (Douglas–Peucker): at the point farthest from the chord, when it lies
// more than half its distance to the surface (a voxel at least) off the
// chord and both halves are at least two such radii long. A tube's curve
// wanders by about a voxel; a bent limb leaves its chord by more than its
// own radius.
func (gr *graph) bend(h float64) {
	n := len(gr.edges)
	for k := 0; k < n; k++ {
		pl := gr.full(k)
		if len(pl.pts) < 3 {
			continue
		}
		cut := append(pl.split(0, len(pl.pts)-1, h, []int{0}), len(pl.pts)-1)
		if len(cut) == 2 {
			continue
		}
		e := gr.edges[k]
		prev := e[0]
		for c := 1; c < len(cut); c++ {
			nj := e[1]
			if c < len(cut)-1 {
				nj = gr.add(pl.pts[cut[c]], pl.rad[cut[c]])
			}
			sub := pl.sub(cut[c-1]+1, cut[c])
			if c == 1 {
				gr.edges[k], gr.paths[k] = [2]int{prev, nj}, sub
			} else {
				gr.edges = append(gr.edges, [2]int{prev, nj})
				gr.paths = append(gr.paths, sub)
			}
			prev = nj
		}
	}
}

// split appends to out the indices of the bends of pl strictly between i
// and j, in order.
func (pl polyline) split(i, j int, h float64, out []int) []int {
	a, b := pl.pts[i], pl.pts[j]
	best, m := 0.0, -1
	for k := i + 1; k < j; k++ {
		tol := 0.5 * max(pl.rad[k], h)
		if d := segDist(pl.pts[k], a, b); d > tol && d/tol > best {
			best, m = d/tol, k
		}
	}
	if m < 0 {
		return out
	}
	r := max(pl.rad[m], h)
	if pl.length(i, m) < 2*r || pl.length(m, j) < 2*r {
		return out
	}
	out = pl.split(i, m, h, out)
	out = append(out, m)
	return pl.split(m, j, h, out)
}

// degree counts each joint's bones.
func (gr *graph) degree() []int {
	deg := make([]int, len(gr.joints))
	for _, e := range gr.edges {
		deg[e[0]]++
		deg[e[1]]++
	}
	return deg
}

// full returns bone k's curve with its two joints at the ends, points
// added along straight stretches (a bone added by a refinement has no
// voxels) so that no two are more than a voxel apart.
func (gr *graph) full(k int) polyline {
	e := gr.edges[k]
	pts := append(append([]linalg.Vec3{gr.joints[e[0]]}, gr.paths[k].pts...), gr.joints[e[1]])
	rad := append(append([]float64{gr.radius[e[0]]}, gr.paths[k].rad...), gr.radius[e[1]])
	var pl polyline
	for i := range pts {
		if i > 0 {
			d := pts[i].Dist(pts[i-1])
			for s := 1; float64(s)*gr.step < d-gr.step/2; s++ {
				t := float64(s) * gr.step / d
				pl.pts = append(pl.pts, pts[i-1].Add(pts[i].Sub(pts[i-1]).Scale(t)))
				pl.rad = append(pl.rad, rad[i-1]+(rad[i]-rad[i-1])*t)
			}
		}
		pl.pts = append(pl.pts, pts[i])
		pl.rad = append(pl.rad, rad[i])
	}
	return pl
}

// sub returns points [i, j) of pl.
func (pl polyline) sub(i, j int) polyline {
	return polyline{pts: pl.pts[i:j], rad: pl.rad[i:j]}
}

func (pl polyline) reversed() polyline {
	n := len(pl.pts)
	out := polyline{pts: make([]linalg.Vec3, n), rad: make([]float64, n)}
	for i := range pl.pts {
		out.pts[n-1-i], out.rad[n-1-i] = pl.pts[i], pl.rad[i]
	}
	return out
}

// length is the arc length of pl from point i to point j.
func (pl polyline) length(i, j int) float64 {
	var s float64
	for k := i + 1; k <= j; k++ {
		s += pl.pts[k].Dist(pl.pts[k-1])
	}
	return s
}

// segDist is the distance from p to segment ab.
func segDist(p, a, b linalg.Vec3) float64 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return p.Dist(a)
	}
	t := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l2))
	return p.Dist(a.Add(ab.Scale(t)))
}
