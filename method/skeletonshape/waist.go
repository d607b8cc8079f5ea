package skeletonshape

import (
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// waistLump is how much thicker, at least, than a narrowing along a bone
// one of the bone's ends must be for the narrowing to count as a waist:
// a lump at least twice as thick as the stalk it hangs from (a head on
// its neck) is a part of its own, where a tube that only swells or
// tapers a little (a limb's muscles, a shoulder) is not.
const waistLump = 2

// waistSamples is how many pieces a bone is cut into to look for its
// narrowest point; the first and last tenth, which stand for the
// joints' own places, are not looked at.
const waistSamples = 20

// Waists adds a joint at the waist of each bone of s that has one: the
// narrowest point along the bone (distance to tree's mesh, sampled from a
// tenth to nine tenths of its length) when it is thinner than both ends
// (radius, per joint: a dip, not a taper), one end is at least waistLump
// times as thick as it (a lump on a stalk: a head on its neck), and the
// bone passes through the middle of the narrowing — within
// straightTolerance of the narrowing's own thickness of its
// cross-section's centre; otherwise the dip is the bone cutting across
// the inside of a curved part near its surface, not a narrowing of the
// part. A part joined to the body through a narrowing turns there (the
// head at the top of the neck), but the force field's minima lie in the
// middle of the parts, where the forces from all sides balance, so the
// bone from the neck's base to the head's centre has no joint where the
// head turns. With plane not nil a bone and its mirror image get their
// joints together, at mirror-image places (the bone with the smaller
// index decides), and a bone that is its own mirror image gets its joint
// on the plane. It returns the number of joints added (at the end of
// s.Joints, each splitting its bone).
func Waists(s *static.Skeleton, tree *bvh.Tree, radius []float64, plane *Plane, d float64) int {
	return len(waists(s, tree, radius, plane, d))
}

// lump is a joint added at a waist and a joint at an end of the bone it
// split that is at least waistLump times as thick as the waist: a part
// on one side of the narrowing (the head's centre beyond the top of the
// neck, or the body's below it).
type lump struct{ waist, centre int }

// waists is Waists, returning the lumps on either side of the joints it
// added.
func waists(s *static.Skeleton, tree *bvh.Tree, radius []float64, plane *Plane, d float64) []lump {
	type split struct {
		bone  int
		at    linalg.Vec3
		thick float64 // the waist's
	}
	var adds []split
	done := make([]bool, len(s.Edges))
	for k, e := range s.Edges {
		if done[k] {
			continue
		}
		done[k] = true
		p, th, ok := waist(tree, s.Joints[e[0]], s.Joints[e[1]], radius[e[0]], radius[e[1]])
		if !ok {
			continue
		}
		if plane == nil {
			adds = append(adds, split{k, p, th})
			continue
		}
		switch mk := mirrorBone(s, plane, k, d); {
		case mk < 0:
			// No mirror image: on a symmetric skeleton the joint would
			// be one-sided.
		case mk == k:
			adds = append(adds, split{k, plane.Project(p), th})
		default:
			done[mk] = true
			adds = append(adds, split{k, p, th}, split{mk, plane.Reflect(p), th})
		}
	}
	var out []lump
	for _, a := range adds {
		e := s.Edges[a.bone]
		j := splitBoneAt(s, a.bone, a.at)
		// Either end may be the part that hangs from the waist: a head on
		// its neck above a body as thick, or thicker.
		for _, c := range e {
			if radius[c] >= waistLump*a.thick {
				out = append(out, lump{j, c})
			}
		}
	}
	return out
}

// crowns adds a tip at the far end of each lump (see Waists) that has
// none: where the thick part hung from a waist (the waist's joint its
// parent in the rooted skeleton: the part, not the body it hangs from)
// has one other bone and that bone turns back from the waist's axis
// (more than a right angle from the direction waist → lump centre: an
// elephant's trunk, which leaves its head forwards and down), the part's
// own far end along the axis — the crown of the head, where an animator
// ends the head's bone — has no joint. The tip goes on that axis, res
// (the method's resolution) short of the surface, like the method's own
// tips. With plane not nil a lump on the plane gets its tip on the
// plane, and a lump off it gets its tip only with its mirror image,
// which gets the tip's mirror image. It returns the number of tips
// added.
func crowns(s *static.Skeleton, tree *bvh.Tree, lumps []lump, radius []float64, plane *Plane, d, res float64) int {
	adj := adjacency(len(s.Joints), s.Edges)
	parent, _ := s.Tree()
	done := make([]bool, len(s.Joints))
	added := 0
	for _, l := range lumps {
		c := l.centre
		if done[c] || len(adj[c]) != 2 || parent[c] != l.waist {
			continue
		}
		done[c] = true
		other := adj[c][0]
		if other == l.waist {
			other = adj[c][1]
		}
		axis := s.Joints[c].Sub(s.Joints[l.waist])
		if axis.Norm() == 0 || s.Joints[other].Sub(s.Joints[c]).Dot(axis) >= 0 {
			continue
		}
		axis = axis.Unit()
		r := bvh.NewRay(s.Joints[c], axis)
		t := tree.Closest(&r)
		if math.IsInf(t, 1) || t-res <= radius[c]/2 {
			continue
		}
		tip := s.Joints[c].Add(axis.Scale(t - res))
		mc := -1 // the lump's mirror image, off the plane
		if plane != nil {
			if abs(plane.Side(s.Joints[c])) < 1e-9*d {
				tip = plane.Project(tip)
			} else if mc = mirrorJoint(s, plane, c, d); mc < 0 || done[mc] || len(adj[mc]) != 2 {
				continue
			}
		}
		s.Joints = append(s.Joints, tip)
		s.Edges = append(s.Edges, [2]int{c, len(s.Joints) - 1})
		added++
		if mc >= 0 {
			done[mc] = true
			s.Joints = append(s.Joints, plane.Reflect(tip))
			s.Edges = append(s.Edges, [2]int{mc, len(s.Joints) - 1})
			added++
		}
	}
	return added
}

// waist returns the waist of the bone from a to b (thicknesses ra, rb),
// if it has one (see Waists).
func waist(tree *bvh.Tree, a, b linalg.Vec3, ra, rb float64) (linalg.Vec3, float64, bool) {
	if math.IsInf(ra, 0) || math.IsInf(rb, 0) || a == b {
		return linalg.Vec3{}, 0, false
	}
	var pts []linalg.Vec3
	for i := 2; i <= waistSamples-2; i++ {
		pts = append(pts, a.Add(b.Sub(a).Scale(float64(i)/waistSamples)))
	}
	th := thickness(tree, pts)
	best := -1
	for i, r := range th {
		if !math.IsInf(r, 0) && (best < 0 || r < th[best]) {
			best = i
		}
	}
	if best < 0 {
		return linalg.Vec3{}, 0, false
	}
	m, p := th[best], pts[best]
	if !(m < min(ra, rb)) || max(ra, rb) < waistLump*m {
		return linalg.Vec3{}, 0, false
	}
	if !(offCentre(tree, p, b.Sub(a)) <= straightTolerance*m) {
		return linalg.Vec3{}, 0, false
	}
	return p, m, true
}

// offCentre returns how far p lies from the middle of the part's
// cross-section perpendicular to axis (crossOffset's length); +Inf when
// a ray hits nothing.
func offCentre(tree *bvh.Tree, p, axis linalg.Vec3) float64 {
	off, ok := crossOffset(tree, p, axis)
	if !ok {
		return math.Inf(1)
	}
	return off.Norm()
}

// crossOffset returns the move from p to the middle of the part's
// cross-section perpendicular to axis: over four lines through p across
// it (every 45°), how far the middle of the line's chord lies from p,
// along the line; false when a ray hits nothing.
func crossOffset(tree *bvh.Tree, p, axis linalg.Vec3) (linalg.Vec3, bool) {
	axis = axis.Unit()
	u := linalg.Vec3{1, 0, 0}
	if math.Abs(axis[0]) > 0.6 {
		u = linalg.Vec3{0, 1, 0}
	}
	u = u.Sub(axis.Scale(u.Dot(axis))).Unit()
	v := axis.Cross(u)
	const lines = 4
	var off linalg.Vec3
	for i := 0; i < lines; i++ {
		ang := math.Pi * float64(i) / lines
		w := u.Scale(math.Cos(ang)).Add(v.Scale(math.Sin(ang)))
		fwd, back := bvh.NewRay(p, w), bvh.NewRay(p, w.Scale(-1))
		t1, t2 := tree.Closest(&fwd), tree.Closest(&back)
		if math.IsInf(t1, 1) || math.IsInf(t2, 1) {
			return linalg.Vec3{}, false
		}
		// The chord's middle lies (t1−t2)/2 along w; over lines evenly
		// spread across half a turn, the sum of those offsets times w,
		// times 2/lines, is the offset in the cross-section's plane.
		off = off.Add(w.Scale((t1 - t2) / lines))
	}
	return off, true
}

// mirrorBone returns the bone of s joining the mirror images of bone k's
// joints (k itself for a bone on the plane), -1 when there is none.
func mirrorBone(s *static.Skeleton, plane *Plane, k int, d float64) int {
	e := s.Edges[k]
	ma, mb := mirrorJoint(s, plane, e[0], d), mirrorJoint(s, plane, e[1], d)
	if ma < 0 || mb < 0 {
		return -1
	}
	for q, f := range s.Edges {
		if (f[0] == ma && f[1] == mb) || (f[0] == mb && f[1] == ma) {
			return q
		}
	}
	return -1
}

// ends removes the joint at the centre of each lump (see Waists) that
// hangs from its waist (the waist's joint its parent in the rooted
// skeleton) and ends the body: when every other bone of the lump's joint
// leads, through joints with two bones, to a tip (a head's crown, a
// trunk's or a snout's end), the part turns where it hangs, at the waist,
// and the force field's minimum in its middle is no joint an animator
// places: the part's bones start at the waist. The lump's joint is
// merged into its waist joint. It returns the new skeleton and the number
// removed.
func ends(s *static.Skeleton, lumps []lump) (*static.Skeleton, int) {
	adj := adjacency(len(s.Joints), s.Edges)
	toTip := func(from, j int) bool {
		for steps := 0; steps <= len(s.Joints); steps++ {
			switch len(adj[j]) {
			case 1:
				return true
			case 2:
				next := adj[j][0]
				if next == from {
					next = adj[j][1]
				}
				from, j = j, next
			default:
				return false
			}
		}
		return false
	}
	parent, _ := s.Tree()
	drop := make([]bool, len(s.Joints))
	n := 0
	for _, l := range lumps {
		c := l.centre
		if parent[c] != l.waist || len(adj[c]) < 2 || drop[c] || drop[l.waist] {
			continue
		}
		ok := true
		for _, k := range adj[c] {
			if k != l.waist && !toTip(c, k) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		drop[c] = true
		n++
		for i, e := range s.Edges {
			switch {
			case e[0] == c && e[1] != l.waist:
				s.Edges[i][0] = l.waist
			case e[1] == c && e[0] != l.waist:
				s.Edges[i][1] = l.waist
			}
		}
		adj = adjacency(len(s.Joints), s.Edges)
	}
	if n == 0 {
		return s, 0
	}
	out, _ := removeJoints(s, drop)
	return out, n
}
