package skeletonshape

import (
	"math"
	"slices"
	"strings"

	"github.com/meshrig/meshrig/method/static"
)

// HeadBase adds a joint at the back of the head of a named skeleton (s.Names
// from Name) whose head hangs from a long neck bone without a joint where
// it turns: the layout's head is a tip; its neighbour c, a neck joint with
// two bones, sits in the middle of the head's part (the force field's
// minimum, where the forces from all sides balance); its other neighbour
// p (towards the chest) is at least as thick as c (radius per joint: a
// neck as thick as the head, or the body; a neck thinner than its head
// narrows, and Waists marks the turn there); and when the bone from c to
// p is longer than their maximal balls reach (radius[c] + radius[p]), a
// length of neck is left with no joint in it. A head turns on its neck at
// the back of the skull, but without a narrowing nothing marks that
// place: Straighten removes the joints the method may have left along
// that straight bone (they oversample a tube of one girth), and the head
// and the top of the neck then move as one piece. The joint goes where
// the bone enters the head's ball — radius[c] from c towards p — on
// plane. It reports whether it added one (at the end of s.Joints,
// splitting the bone, with the name ""; call Name again for the neck's
// numbering).
func HeadBase(s *static.Skeleton, radius []float64, plane Plane) bool {
	if s.Names == nil {
		return false
	}
	adj := adjacency(len(s.Joints), s.Edges)
	head := slices.Index(s.Names, "head")
	if head < 0 || len(adj[head]) != 1 {
		return false
	}
	c := adj[head][0]
	if len(adj[c]) != 2 || !strings.HasPrefix(s.Names[c], "neck") {
		return false
	}
	p := adj[c][0]
	if p == head {
		p = adj[c][1]
	}
	rc, rp := radius[c], radius[p]
	l := s.Joints[c].Dist(s.Joints[p])
	if math.IsInf(rc, 0) || math.IsInf(rp, 0) || !(rc > 0) || rp < rc || l <= rc+rp {
		return false
	}
	at := plane.Project(s.Joints[c].Add(s.Joints[p].Sub(s.Joints[c]).Scale(rc / l)))
	for k, e := range s.Edges {
		if (e[0] == c && e[1] == p) || (e[0] == p && e[1] == c) {
			splitBoneAt(s, k, at)
			break
		}
	}
	s.Names = append(s.Names, "")
	return true
}
