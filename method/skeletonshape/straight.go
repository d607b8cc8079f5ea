package skeletonshape

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// straightTolerance is how far, in units of its own thickness, a joint
// with two bones must stand off the bone that would replace it — in
// position and in thickness together — to be kept: within half the
// thickness the replacing bone stays in the inner half of the limb's
// tube and the tube's width follows it, so the joint marks neither a bend
// nor a change of girth (a wrist, a neck), only the method's sampling of
// a straight part.
const straightTolerance = 0.5

// Straighten removes the joints of s that only oversample a straight
// run of a limb. A joint with two bones (not the root) goes when its
// maximal ball (radius, per joint) and a neighbour's overlap — the tube
// has no length between them to bend in — and it stands within
// straightTolerance of its own thickness off the bone that would replace
// it, in position and girth together (x, y, z, r: a bend or a change of
// girth, such as a wrist, stays); or, whatever the angle, when one of the
// two lies inside the other's ball. A tip, on the surface, stands for its
// neighbour's girth and counts only when inside. Kept as well: the first joint of a limb where it leaves a fork's
// ball (a hip, a shoulder), and the last inner joint of a chain ending
// in a tip (a knee, an elbow). Joints go one at a time, the most
// overlapped first; with plane not nil a joint goes together with its
// mirror image, so a symmetric skeleton stays symmetric. It returns the
// new skeleton and the number of joints removed.
func Straighten(s *static.Skeleton, radius []float64, plane *Plane, d float64) (*static.Skeleton, int) {
	removed := 0
	for {
		n := len(s.Joints)
		adj := adjacency(n, s.Edges)
		inner := func(j int) bool { return len(adj[j]) == 2 && j != s.Root }
		mirrorOf := func(j int) int { return mirrorJoint(s, plane, j, d) }
		// The girth a joint stands for: a tip sits on the surface, its own
		// thickness near 0; the limb's there is its neighbour's.
		girth := func(j int) float64 { return tubeGirth(adj, radius, j) }
		// Where a limb leaves a fork's ball: a hip, a shoulder.
		exit := func(j int) bool {
			for _, k := range adj[j] {
				if len(adj[k]) > 2 && exits(s.Joints, radius, k, j) {
					return true
				}
			}
			return false
		}
		removable := func(j int) (float64, bool) {
			if !inner(j) || math.IsInf(radius[j], 0) || radius[j] <= 0 || exit(j) {
				return 0, false
			}
			a, b := adj[j][0], adj[j][1]
			// The last inner joint of a limb, a knee or an elbow.
			if (len(adj[a]) == 1 && !(inner(b) && !exit(b))) || (len(adj[b]) == 1 && !(inner(a) && !exit(a))) {
				return 0, false
			}
			overlap, inside := 0.0, false
			for _, k := range adj[j] {
				if math.IsInf(girth(k), 0) {
					continue
				}
				l := s.Joints[j].Dist(s.Joints[k])
				in := max(radius[j], girth(k)) > l
				inside = inside || in
				if len(adj[k]) > 1 || in {
					// A tip's ball is cut by the surface: only one inside
					// the other's counts.
					overlap = max(overlap, (radius[j]+girth(k))/l)
				}
			}
			if overlap <= 1 {
				return 0, false
			}
			if inside {
				// One joint inside the other's ball: no tube between them
				// to bend, whatever angle the two bones make.
				return overlap, true
			}
			if segmentOffset(s.Joints, radius, girth, j, a, b) > straightTolerance*radius[j] {
				return 0, false
			}
			return overlap, true
		}
		best, bestOverlap := -1, 0.0
		for j := range s.Joints {
			o, ok := removable(j)
			if !ok || o <= bestOverlap {
				continue
			}
			if m := mirrorOf(j); m < 0 || (m != j && func() bool { _, ok := removable(m); return !ok || adjacentTo(adj, j, m) }()) {
				continue
			}
			best, bestOverlap = j, o
		}
		if best < 0 {
			return s, removed
		}
		drop := make([]bool, n)
		drop[best] = true
		drop[mirrorOf(best)] = true
		var keep []int
		for j := 0; j < n; j++ {
			if drop[j] {
				removed++
			} else {
				keep = append(keep, j)
			}
		}
		out, idx := removeJoints(s, drop)
		r := make([]float64, len(out.Joints))
		for _, j := range keep {
			r[idx[j]] = radius[j]
		}
		s, radius = out, r
	}
}

// exits reports whether joint j, next to fork f, lies where its limb
// leaves the fork's body: within the sum of their thicknesses.
func exits(p []linalg.Vec3, radius []float64, f, j int) bool {
	return p[f].Dist(p[j]) <= radius[f]+radius[j]
}

// mirrorJoint returns the joint at j's mirror image through plane (j
// itself without a plane), -1 when there is none.
func mirrorJoint(s *static.Skeleton, plane *Plane, j int, d float64) int {
	if plane == nil {
		return j
	}
	r := plane.Reflect(s.Joints[j])
	for k, q := range s.Joints {
		if q.Dist(r) < 1e-6*d {
			return k
		}
	}
	return -1
}

// tubeGirth is joint j's thickness as a run's end: a tip (one bone) stands
// for its neighbour's, its own ball being cut by the surface.
func tubeGirth(adj [][]int, radius []float64, j int) float64 {
	if len(adj[j]) == 1 {
		return radius[adj[j][0]]
	}
	return radius[j]
}

// segmentOffset is how far joint j stands off the segment a–b in position
// and girth together (x, y, z, r), the girth interpolated along it.
func segmentOffset(joints []linalg.Vec3, radius []float64, girth func(int) float64, j, a, b int) float64 {
	pa, pb := joints[a], joints[b]
	ab := pb.Sub(pa)
	t := 0.0
	if l := ab.Norm2(); l > 0 {
		t = min(max(joints[j].Sub(pa).Dot(ab)/l, 0), 1)
	}
	h := joints[j].Dist(pa.Add(ab.Scale(t)))
	dr := radius[j] - (girth(a) + t*(girth(b)-girth(a)))
	return math.Hypot(h, dr)
}
