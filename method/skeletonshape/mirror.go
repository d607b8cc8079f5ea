package skeletonshape

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/spantree"
)

const (
	// pairGap is the largest distance between a joint's mirror image and
	// its partner, as a fraction of the diagonal: a joint of the same
	// limb on the other side, placed by a method that does not know about
	// symmetry (a few voxels of 1/64 of the longest side off), or on a
	// mesh posed a little off its symmetry (the armadillo's arms).
	pairGap = 0.06
)

// MirrorStats says what Symmetrize did.
type MirrorStats struct {
	// Pairs of joints made mirror images, and joints projected onto the
	// plane.
	Pairs, OnPlane int
	// Dropped counts joints with two bones and no partner (a bend on one
	// side only) removed, their bones joined; Mirrored the other joints
	// with no partner (a tip or a fork on one side only), given a mirror
	// image with mirrored bones.
	Dropped, Mirrored int
	// Left counts joints without a partner on a loop of the shape, left
	// where they are (neither removed nor mirrored, so the loop stays).
	Left int
	// Skipped is set when most joints found no partner: s is returned
	// as it was.
	Skipped bool
}

// Symmetrize returns s made symmetric about pl (d is the mesh's diagonal):
// joints are paired across the plane, closest mirror images first, when
// the mirror image of one lies within pairGap·d of the other — a joint
// may pair with itself (a spine joint: its own mirror image is the
// nearest) and is then projected onto the plane, so two legs close to
// the plane stay two legs — and each pair is
// replaced by the average of one and the other's mirror image, so the two
// are exact mirror images. A joint left without a partner is removed when
// it has two bones (a bend one limb has and the other not; its bones
// joined) and otherwise given a mirror image, with the mirror images of
// its bones; but when fewer than half the joints are paired or on the
// plane by then, the skeleton does not follow the plane and s comes back
// unchanged (MirrorStats.Skipped). A joint alone on a loop of the shape
// stays where it is. Root is kept (renumbered). The caller decides that the mesh
// is symmetric (Plane.Residual): every part of s gets its mirror image.
func Symmetrize(s *static.Skeleton, pl Plane, d float64) (*static.Skeleton, MirrorStats) {
	n := len(s.Joints)
	out := &static.Skeleton{Joints: append([]linalg.Vec3(nil), s.Joints...), Edges: append([][2]int(nil), s.Edges...), Root: s.Root}
	var st MirrorStats
	side := make([]float64, n)
	partner := make([]int, n)
	for j, p := range s.Joints {
		side[j] = pl.Side(p)
		partner[j] = -1
	}
	type cand struct {
		a, b int
		gap  float64
	}
	var cands []cand
	for a := 0; a < n; a++ {
		// A joint may be its own partner: its mirror image is then nearer
		// than any other joint's, and it goes onto the plane.
		if g := 2 * math.Abs(side[a]); g < pairGap*d {
			cands = append(cands, cand{a, a, g})
		}
		if side[a] <= 0 {
			continue
		}
		ra := pl.Reflect(s.Joints[a])
		for b := 0; b < n; b++ {
			if side[b] >= 0 {
				continue
			}
			if g := ra.Dist(s.Joints[b]); g < pairGap*d {
				cands = append(cands, cand{a, b, g})
			}
		}
	}
	sort.SliceStable(cands, func(i, k int) bool { return cands[i].gap < cands[k].gap })
	for _, c := range cands {
		if partner[c.a] >= 0 || partner[c.b] >= 0 {
			continue
		}
		if c.a == c.b {
			partner[c.a] = c.a
			out.Joints[c.a] = pl.Project(s.Joints[c.a])
			st.OnPlane++
			continue
		}
		partner[c.a], partner[c.b] = c.b, c.a
		q := s.Joints[c.a].Add(pl.Reflect(s.Joints[c.b])).Scale(0.5)
		out.Joints[c.a], out.Joints[c.b] = q, pl.Reflect(q)
		st.Pairs++
	}
	// A skeleton that does not follow the plane (most joints without a
	// partner: a torus cut by three joints) is left as it is.
	if 2*st.Pairs+st.OnPlane < (n+1)/2 {
		st.Skipped = true
		return s, st
	}
	// Tips and forks still alone pair with a joint of the same degree
	// across the plane within three times the gap: the same limb's end,
	// placed farther off by a method that shortened one limb more.
	adj := adjacency(n, out.Edges)
	cands = cands[:0]
	for a := 0; a < n; a++ {
		if partner[a] >= 0 || side[a] <= 0 || len(adj[a]) == 2 {
			continue
		}
		ra := pl.Reflect(s.Joints[a])
		for b := 0; b < n; b++ {
			if partner[b] >= 0 || side[b] >= 0 || len(adj[b]) != len(adj[a]) {
				continue
			}
			if g := ra.Dist(s.Joints[b]); g < 3*pairGap*d {
				cands = append(cands, cand{a, b, g})
			}
		}
	}
	sort.SliceStable(cands, func(i, k int) bool { return cands[i].gap < cands[k].gap })
	for _, c := range cands {
		if partner[c.a] >= 0 || partner[c.b] >= 0 {
			continue
		}
		partner[c.a], partner[c.b] = c.b, c.a
		q := s.Joints[c.a].Add(pl.Reflect(s.Joints[c.b])).Scale(0.5)
		out.Joints[c.a], out.Joints[c.b] = q, pl.Reflect(q)
		st.Pairs++
	}
	// Bends on one side only go, unless they are on a loop of the shape.
	drop := make([]bool, n)
	for j := 0; j < n; j++ {
		if partner[j] >= 0 || len(adj[j]) != 2 {
			continue
		}
		if onCycle(adj, j) {
			partner[j] = j // on a loop: left where it is
			st.Left++
		} else if j != out.Root {
			drop[j] = true
			st.Dropped++
		}
	}
	if st.Dropped > 0 {
		var idx []int
		out, idx = removeJoints(out, drop)
		np := make([]int, len(out.Joints))
		for j := range np {
			np[j] = -1
		}
		for j, k := range idx {
			if k >= 0 && !drop[j] && partner[j] >= 0 {
				np[k] = idx[partner[j]]
			}
		}
		partner = np
	}
	// Tips and forks on one side only get their mirror images.
	m := len(out.Joints)
	copied := make([]bool, m)
	for j := 0; j < m; j++ {
		if partner[j] < 0 {
			copied[j] = true
			out.Joints = append(out.Joints, pl.Reflect(out.Joints[j]))
			partner[j] = len(out.Joints) - 1
			partner = append(partner, j)
			st.Mirrored++
		}
	}
	if st.Mirrored > 0 {
		// A one-sided part's mirror image takes the mirror images of its
		// own bones and of one bone attaching it to the rest, so mirroring
		// adds no loop.
		comp := spantree.NewSets(m)
		find := comp.Find
		edges := out.Edges[:len(out.Edges):len(out.Edges)]
		for _, e := range edges {
			if copied[e[0]] && copied[e[1]] {
				comp.Union(e[0], e[1])
			}
		}
		attached := map[int]bool{}
		for _, e := range edges {
			a, b := e[0], e[1]
			switch {
			case copied[a] && copied[b]:
			case copied[a] || copied[b]:
				c := a
				if copied[b] {
					c = b
				}
				if attached[find(c)] {
					continue
				}
				attached[find(c)] = true
			default:
				continue
			}
			out.Edges = append(out.Edges, [2]int{partner[a], partner[b]})
		}
		// A part with nothing to attach to (the whole skeleton on one
		// side) is joined to its mirror image where it comes nearest.
		near := map[int]int{}
		for j := 0; j < m; j++ {
			if !copied[j] || attached[find(j)] {
				continue
			}
			if k, ok := near[find(j)]; !ok || math.Abs(pl.Side(out.Joints[j])) < math.Abs(pl.Side(out.Joints[k])) {
				near[find(j)] = j
			}
		}
		for c := 0; c < m; c++ {
			if j, ok := near[c]; ok {
				out.Edges = append(out.Edges, [2]int{j, partner[j]})
			}
		}
	}
	if st.Left == 0 {
		mirrorTopology(out, partner)
	}
	return out, st
}

// mirrorTopology gives a tree s the mirror image of every bone where it
// can (partner[j] is j's mirror joint, j itself on the plane): bones and
// their mirror images are taken together — those the two sides already
// agree on first, then the shorter — into a spanning tree, a pair only
// when both fit without a loop; if that leaves the tree in pieces, the
// first bones that join them are added alone. A graph with loops (a
// torus) is left as it is.
func mirrorTopology(s *static.Skeleton, partner []int) {
	n := len(s.Joints)
	if len(s.Edges) != n-1 || len(partner) != n {
		return
	}
	key := func(a, b int) [2]int { return [2]int{min(a, b), max(a, b)} }
	have := map[[2]int]bool{}
	for _, e := range s.Edges {
		have[key(e[0], e[1])] = true
	}
	type group struct {
		a, b   [2]int
		agreed bool
		length float64
	}
	seen := map[[2]int]bool{}
	var groups []group
	for _, e := range s.Edges {
		a := key(e[0], e[1])
		b := key(partner[e[0]], partner[e[1]])
		if seen[a] || b[0] == b[1] {
			continue
		}
		seen[a], seen[b] = true, true
		groups = append(groups, group{a, b, have[b], s.Joints[e[0]].Dist(s.Joints[e[1]])})
	}
	sort.SliceStable(groups, func(i, k int) bool {
		if groups[i].agreed != groups[k].agreed {
			return groups[i].agreed
		}
		return groups[i].length < groups[k].length
	})
	comp := spantree.NewSets(n)
	find := comp.Find
	var edges [][2]int
	var skipped [][2]int
	for _, g := range groups {
		c1, c2 := find(g.a[0]), find(g.a[1])
		if g.a == g.b {
			if c1 != c2 {
				comp[c1] = c2
				edges = append(edges, g.a)
			}
			continue
		}
		c3, c4 := find(g.b[0]), find(g.b[1])
		if c1 == c2 || c3 == c4 || key(c1, c2) == key(c3, c4) {
			skipped = append(skipped, g.a, g.b)
			continue
		}
		comp[c1] = c2
		comp[find(c3)] = find(c4)
		edges = append(edges, g.a, g.b)
	}
	for _, e := range skipped {
		if comp.Union(e[0], e[1]) {
			edges = append(edges, e)
		}
	}
	if len(edges) == n-1 {
		s.Edges = edges
	}
}

// MirrorResidual returns the largest distance from a joint's mirror image
// to the nearest joint of s, in % of d: 0 for a skeleton symmetric about
// pl.
func MirrorResidual(s *static.Skeleton, pl Plane, d float64) float64 {
	worst := 0.0
	for _, p := range s.Joints {
		r := pl.Reflect(p)
		best := math.Inf(1)
		for _, q := range s.Joints {
			best = min(best, r.Dist(q))
		}
		worst = max(worst, best)
	}
	return 100 * worst / d
}

// segDist is the distance from p to the segment ab.
func segDist(p, a, b linalg.Vec3) float64 {
	ab := b.Sub(a)
	t := 0.0
	if l := ab.Norm2(); l > 0 {
		t = min(max(p.Sub(a).Dot(ab)/l, 0), 1)
	}
	return p.Dist(a.Add(ab.Scale(t)))
}

// onCycle reports whether joint j (two bones) lies on a loop: whether its
// neighbours are connected without it.
func onCycle(adj [][]int, j int) bool {
	a, b := adj[j][0], adj[j][1]
	seen := map[int]bool{j: true, a: true}
	queue := []int{a}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range adj[u] {
			if !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
	return seen[b]
}
