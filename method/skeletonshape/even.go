package skeletonshape

import (
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// uniformGirth is how much, as a fraction of the largest, the joints of a
// run may differ in thickness for the run to count as a tube of one
// girth: the thickness measure's own scatter (26 rays, within a few
// percent of the true distance in a tube).
const uniformGirth = 0.05

// EvenRuns spaces evenly the joints of s along each run that is one
// straight tube of one girth, and centres them and the run's tips in
// the tube's cross-section. Along such a tube a method's curve skeleton
// has nothing to place a joint by (the force field is the same all along
// it; its minima fall where the voxel centres do, half a voxel off the
// axis, and its joints are as far apart as the grouping spheres make
// them), so the joints' places there are the method's sampling, not the
// shape's.
//
// A run is a path of joints with two bones, each within straightTolerance
// of its own thickness off the bone that would replace it, in position
// and girth together (as Straighten judges; a bend or a change of girth
// ends a run), between two joints that are not; it is moved when it holds
// at least two such joints, all of them, its ends' girths included (a
// tip stands for its neighbour's), lie within straightTolerance of the
// line between its ends, and their thicknesses (radius, per joint) differ
// by at most uniformGirth. A run of one joint is left: that joint may be
// the part's one articulation (a knee between a foot and a hip, a spine
// joint between hips and shoulders), and where only one sits there is no
// spacing to even. Joints move along the run's polyline to equal arc
// lengths, then, with the run's tips, to the middle of the tube's cross-
// section perpendicular to the run (a move of more than half the joint's
// thickness is not made). With plane not nil a joint's mirror image
// takes the mirror of its place and a joint on the plane stays on it.
// Joints, bones and the root stay; it returns the number of joints moved.
func EvenRuns(s *static.Skeleton, radius []float64, tree *bvh.Tree, plane *Plane, d float64) int {
	n := len(s.Joints)
	adj := adjacency(n, s.Edges)
	mirror := make([]int, n)
	for j := range mirror {
		mirror[j] = mirrorJoint(s, plane, j, d)
	}
	girth := func(j int) float64 { return tubeGirth(adj, radius, j) }
	off := func(j, a, b int) float64 { return segmentOffset(s.Joints, radius, girth, j, a, b) }
	inner := make([]bool, n)
	for j := range inner {
		r := radius[j]
		inner[j] = len(adj[j]) == 2 && !math.IsInf(r, 0) && r > 0 && off(j, adj[j][0], adj[j][1]) <= straightTolerance*r
	}
	type centring struct {
		j   int
		dir linalg.Vec3
	}
	var centre []centring
	moved := 0
	seen := make([]bool, n)
	for a := 0; a < n; a++ {
		if inner[a] {
			continue
		}
		for _, first := range adj[a] {
			if !inner[first] || seen[first] {
				continue
			}
			run := []int{a}
			prev, cur := a, first
			for inner[cur] && !seen[cur] {
				seen[cur] = true
				run = append(run, cur)
				next := adj[cur][0]
				if next == prev {
					next = adj[cur][1]
				}
				prev, cur = cur, next
			}
			if inner[cur] {
				continue // a loop of inner joints only
			}
			run = append(run, cur)
			if !evenRun(s, run, radius, girth, off) || leaves(tree, s.Joints, run) {
				continue
			}
			pts := make([]linalg.Vec3, len(run))
			arc := make([]float64, len(run))
			for i, j := range run {
				pts[i] = s.Joints[j]
				if i > 0 {
					arc[i] = arc[i-1] + pts[i].Dist(pts[i-1])
				}
			}
			last := len(run) - 1
			for i := 1; i < last; i++ {
				want := arc[last] * float64(i) / float64(last)
				k := 1
				for k < last && arc[k] < want {
					k++
				}
				f := 0.0
				if l := arc[k] - arc[k-1]; l > 0 {
					f = (want - arc[k-1]) / l
				}
				s.Joints[run[i]] = pts[k-1].Add(pts[k].Sub(pts[k-1]).Scale(f))
				moved++
			}
			dir := pts[last].Sub(pts[0]).Unit()
			for i, j := range run {
				if (i > 0 && i < last) || len(adj[j]) == 1 {
					centre = append(centre, centring{j, dir})
				}
			}
		}
	}
	done := make([]bool, n)
	for _, c := range centre {
		if done[c.j] {
			continue
		}
		done[c.j] = true
		p := crossCentre(tree, s.Joints[c.j], c.dir)
		if p.Dist(s.Joints[c.j]) > straightTolerance*girth(c.j) {
			continue
		}
		if plane != nil {
			if m := mirror[c.j]; m == c.j {
				p = plane.Project(p)
			} else if m >= 0 {
				s.Joints[m] = plane.Reflect(p)
				done[m] = true
			}
		}
		s.Joints[c.j] = p
	}
	return moved
}

// evenRun reports whether run (its ends first and last) is one straight
// tube of one girth with at least two joints inside.
func evenRun(s *static.Skeleton, run []int, radius []float64, girth func(int) float64, off func(j, a, b int) float64) bool {
	if len(run) < 4 {
		return false
	}
	a, b := run[0], run[len(run)-1]
	lo, hi := math.Inf(1), 0.0
	for _, j := range run {
		lo, hi = min(lo, girth(j)), max(hi, girth(j))
	}
	if math.IsInf(hi, 0) || hi-lo > uniformGirth*hi {
		return false
	}
	for _, j := range run[1 : len(run)-1] {
		if off(j, a, b) > straightTolerance*radius[j] {
			return false
		}
	}
	return true
}

// leaves reports whether a bone of run passes through the surface (a
// bone joining separate parts): the run is then not one tube.
func leaves(tree *bvh.Tree, p []linalg.Vec3, run []int) bool {
	for i := 1; i < len(run); i++ {
		a, b := p[run[i-1]], p[run[i]]
		l := a.Dist(b)
		if l == 0 {
			continue
		}
		r := bvh.NewRay(a, b.Sub(a).Scale(1/l))
		if tree.Blocked(&r, 0, l) {
			return true
		}
	}
	return false
}

// crossCentre returns p moved to the middle of the tube's cross-section
// through it perpendicular to dir (crossOffset, three times); p itself
// when a ray leaves the mesh.
func crossCentre(tree *bvh.Tree, p, dir linalg.Vec3) linalg.Vec3 {
	for range 3 {
		off, ok := crossOffset(tree, p, dir)
		if !ok {
			return p
		}
		p = p.Add(off)
	}
	return p
}
