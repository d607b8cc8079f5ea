package skinweights

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// Segment is a bone as a line segment from A to B. The vertices nearest
// it are bound to Joint, the joint whose rotation moves it.
type Segment struct {
	A, B  linalg.Vec3
	Joint int
}

// Dist returns the distance from p to the segment.
func (s Segment) Dist(p linalg.Vec3) float64 { return p.Dist(s.Closest(p)) }

// Closest returns the point of the segment nearest to p.
func (s Segment) Closest(p linalg.Vec3) linalg.Vec3 {
	ab := s.B.Sub(s.A)
	t := 0.0
	if l2 := ab.Norm2(); l2 > 0 {
		t = math.Max(0, math.Min(1, p.Sub(s.A).Dot(ab)/l2))
	}
	return s.A.Add(ab.Scale(t))
}

// bones returns the bone segments of s with joint positions joints: one
// from each joint to each child in s's spanning tree, owned by the
// parent. An edge the tree cut (a loop) is owned by its endpoint nearer
// the root in breadth-first order, so the loop's surface is still bound.
// A skeleton without edges is a point bone at its root.
func bones(s *static.Skeleton, joints []linalg.Vec3) []Segment {
	parent, order := s.Tree()
	if len(s.Edges) == 0 {
		return []Segment{{A: joints[s.Root], B: joints[s.Root], Joint: s.Root}}
	}
	rank := make([]int, len(joints))
	for k, j := range order {
		rank[j] = k
	}
	var out []Segment
	for _, c := range order {
		if p := parent[c]; p >= 0 {
			out = append(out, Segment{A: joints[p], B: joints[c], Joint: p})
		}
	}
	for _, e := range s.Edges {
		a, b := e[0], e[1]
		if parent[a] == b || parent[b] == a {
			continue
		}
		if rank[b] < rank[a] {
			a, b = b, a
		}
		out = append(out, Segment{A: joints[a], B: joints[b], Joint: a})
	}
	return out
}
