package skeletonshape

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// maxChildren is the most children a joint keeps: a pelvis has two legs
// and the spine (or a tail).
const maxChildren = 3

// SplitStars turns every joint of s with more than maxChildren children
// (in s.Tree()) into a short chain: its children, ordered by how far they
// lie along axis — the bone from its parent, or main for the root (the
// body's long axis) — are cut in two at the largest gap, and the group
// lying farther along the axis hangs from a new joint on the axis, half
// way to that group's nearest child (a group of two children or more, so
// the star loses children); failing that, the two children leaving in
// the most alike directions hang from a new joint between them and the
// star (splitByDirection). It repeats until no joint has more
// than maxChildren children, or a star's children cannot be told apart
// along the axis. A star on plane (when not nil) splits on it. It returns
// the number of joints added.
func SplitStars(s *static.Skeleton, main linalg.Vec3, plane *Plane, d float64) int {
	added := 0
	for guard := 0; guard < 4*len(s.Joints)+8; guard++ {
		parent, order := s.Tree()
		children := make([][]int, len(s.Joints))
		for _, j := range order[1:] {
			children[parent[j]] = append(children[parent[j]], j)
		}
		split := false
		for _, j := range order {
			if len(children[j]) <= maxChildren {
				continue
			}
			axis := main
			if p := parent[j]; p >= 0 {
				if a := s.Joints[j].Sub(s.Joints[p]); a.Norm() > 0 {
					axis = a.Unit()
				}
			}
			if splitStar(s, j, children[j], axis, plane, d) {
				added++
				split = true
				break
			}
		}
		if !split {
			break
		}
	}
	return added
}

// splitStar moves part of j's children under a new joint; false when the
// children cannot be split along axis nor by direction.
func splitStar(s *static.Skeleton, j int, kids []int, axis linalg.Vec3, plane *Plane, d float64) bool {
	pj := s.Joints[j]
	type kid struct {
		c int
		t float64
	}
	ks := make([]kid, len(kids))
	for i, c := range kids {
		ks[i] = kid{c, s.Joints[c].Sub(pj).Dot(axis)}
	}
	sort.SliceStable(ks, func(a, b int) bool { return ks[a].t < ks[b].t })
	// The group that moves must hold two children or more, or the star
	// keeps its count and only grows a chain.
	mean := func(g []kid) float64 {
		sum := 0.0
		for _, k := range g {
			sum += math.Abs(k.t)
		}
		return sum / float64(len(g))
	}
	var group []kid
	near, gap := 0.0, 0.0
	for i := 1; i < len(ks); i++ {
		// Cuts between children level with each other (a mirrored pair)
		// would part them.
		g := ks[i].t - ks[i-1].t
		if g <= gap || g < 1e-3*d {
			continue
		}
		lo, hi := ks[:i], ks[i:]
		grp, nr := hi, hi[0].t
		other, otherNr := lo, lo[len(lo)-1].t
		if mean(lo) > mean(hi) {
			grp, nr, other, otherNr = lo, lo[len(lo)-1].t, hi, hi[0].t
		}
		if len(grp) < 2 || math.Abs(nr) < 1e-3*d {
			// The nearer side moves when it is the one with two
			// children or more (the arms and the neck above a star whose
			// other child is the pelvis).
			grp, nr = other, otherNr
		}
		if len(grp) < 2 || math.Abs(nr) < 1e-3*d {
			continue
		}
		group, near, gap = grp, nr, g
	}
	if group == nil || gap < 1e-3*d {
		return splitByDirection(s, j, kids, plane, d)
	}
	q := pj.Add(axis.Scale(near / 2))
	if plane != nil && math.Abs(plane.Side(pj)) < 1e-9*d {
		q = plane.Project(q)
	}
	s.Joints = append(s.Joints, q)
	nj := len(s.Joints) - 1
	moved := map[int]bool{}
	for _, k := range group {
		moved[k.c] = true
	}
	for e, ed := range s.Edges {
		if ed[0] == j && moved[ed[1]] {
			s.Edges[e] = [2]int{nj, ed[1]}
		} else if ed[1] == j && moved[ed[0]] {
			s.Edges[e] = [2]int{ed[0], nj}
		}
	}
	s.Edges = append(s.Edges, [2]int{j, nj})
	return true
}

// splitByDirection hangs the two children of j whose directions from j
// agree best (two legs below a root in the middle of the spine) from a
// new joint between them and j: on their mean direction, half way to the
// nearer one's projection on it. False when no two children leave j
// within 60° of each other.
func splitByDirection(s *static.Skeleton, j int, kids []int, plane *Plane, d float64) bool {
	pj := s.Joints[j]
	bestA, bestB, bestCos := -1, -1, 0.5
	for a := 0; a < len(kids); a++ {
		for b := a + 1; b < len(kids); b++ {
			ua, ub := s.Joints[kids[a]].Sub(pj).Unit(), s.Joints[kids[b]].Sub(pj).Unit()
			if c := ua.Dot(ub); c > bestCos {
				bestA, bestB, bestCos = a, b, c
			}
		}
	}
	if bestA < 0 {
		return false
	}
	ca, cb := kids[bestA], kids[bestB]
	u := s.Joints[ca].Sub(pj).Unit().Add(s.Joints[cb].Sub(pj).Unit()).Unit()
	reach := min(s.Joints[ca].Sub(pj).Dot(u), s.Joints[cb].Sub(pj).Dot(u))
	if reach < 1e-3*d {
		return false
	}
	q := pj.Add(u.Scale(reach / 2))
	if plane != nil && math.Abs(plane.Side(pj)) < 1e-9*d {
		q = plane.Project(q)
	}
	s.Joints = append(s.Joints, q)
	nj := len(s.Joints) - 1
	for e, ed := range s.Edges {
		if ed[0] == j && (ed[1] == ca || ed[1] == cb) {
			s.Edges[e] = [2]int{nj, ed[1]}
		} else if ed[1] == j && (ed[0] == ca || ed[0] == cb) {
			s.Edges[e] = [2]int{ed[0], nj}
		}
	}
	s.Edges = append(s.Edges, [2]int{j, nj})
	return true
}
