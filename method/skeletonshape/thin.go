package skeletonshape

import (
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// thinGirth is how thick, in units of the method's resolution, a branch
// may be at most to count as thin: a part whose distance to the surface
// stays within two voxels is at most four voxels across, where the
// method's joints follow its voxel grid rather than the part's shape.
const thinGirth = 2

// thinReach is how long a thin branch may be, as a share of the limb it
// ends (its fork's distance from the torso root along the skeleton), to
// count as a digit: toes and fingers are a small part of their leg or
// arm, while a thin leg is longer than the body between it and the root.
const thinReach = 1.0 / 3

// FoldThin removes thin short branches of s: chains from a tip to the
// first fork that nowhere beyond the fork's ball lie farther than
// thinGirth·resolution from the surface of tree's mesh and whose length
// is under thinReach times the fork's distance along the skeleton from
// the torso root (TorsoRoot) — the toes and fingers of a character whose
// digits are too thin for the method to place joints in, which are then
// skinned to their foot or hand. A thin chain counts only when another
// chain as short, thin or not, hangs from a fork nearer its own than the
// two are long (a hand or a foot has several digits, or a digit and a
// heel; a thin tip alone is a limb's own end). It repeats while forks turn into tips, never
// removes the root (s.Root, nor the torso's), and keeps at least two
// joints. It returns the new skeleton and the number of
// joints removed; resolution 0 removes none.
func FoldThin(s *static.Skeleton, tree *bvh.Tree, resolution float64) (*static.Skeleton, int) {
	removed := 0
	if !(resolution > 0) {
		return s, 0
	}
	for {
		n := len(s.Joints)
		if n <= 2 {
			return s, removed
		}
		adj := adjacency(n, s.Edges)
		radius := thickness(tree, s.Joints)
		root := TorsoRoot(s, radius, nil)
		fromRoot := shortestPaths(s, adj, root)
		chains := make([][]int, n)
		thin, short := make([]bool, n), make([]bool, n)
		forkAt := make([]int, n)
		lengths := make([]float64, n)
		for tip := 0; tip < n; tip++ {
			if len(adj[tip]) != 1 || tip == root || tip == s.Root {
				continue
			}
			// The method's root stays as well as the torso's.
			chain, fork, length := tipChain(s, adj, tip, func(j int) bool { return j == root || j == s.Root })
			if len(adj[fork]) < 3 || math.IsInf(radius[fork], 0) || math.IsInf(fromRoot[fork], 0) {
				continue
			}
			if length >= thinReach*fromRoot[fork] {
				continue
			}
			short[tip], forkAt[tip], lengths[tip] = true, fork, length
			if girth(tree, s.Joints, append(chain, fork), radius[fork]) > thinGirth*resolution {
				continue
			}
			chains[tip], thin[tip] = chain, true
		}
		// A hand or a foot has several digits (or a digit and a heel),
		// short branches whose forks are nearer each other than the two
		// are long; a thin tip with no such branch near it is a limb's
		// own end.
		digit := make([]bool, n)
		for a := range thin {
			if !thin[a] {
				continue
			}
			dist := shortestPaths(s, adj, forkAt[a])
			for b := range thin {
				if b != a && short[b] && dist[forkAt[b]] <= lengths[a]+lengths[b] {
					digit[a] = true
					break
				}
			}
		}
		thin = digit
		drop := folded(n, thin, chains)
		any := false
		for _, dj := range drop {
			any = any || dj
		}
		if !any {
			return s, removed
		}
		keep := kept(drop)
		if len(keep) < 2 {
			return s, removed
		}
		removed += n - len(keep)
		s = subset(s, keep)
	}
}

// tipChain walks from tip to the first joint that is not inside a chain
// (a fork, or one stop marks): the chain's joints from the tip, that
// joint, and the chain's length.
func tipChain(s *static.Skeleton, adj [][]int, tip int, stop func(int) bool) (chain []int, fork int, length float64) {
	chain = []int{tip}
	prev, cur := -1, tip
	for {
		next := -1
		for _, k := range adj[cur] {
			if k != prev {
				next = k
				break
			}
		}
		if next < 0 {
			return chain, cur, length
		}
		length += s.Joints[cur].Dist(s.Joints[next])
		prev, cur = cur, next
		if len(adj[cur]) != 2 || stop(cur) {
			return chain, cur, length
		}
		chain = append(chain, cur)
	}
}

// girth returns the largest distance to the surface along the path of
// joints (tip first, fork last), sampled at the joints and the quarters
// of each bone, leaving out what lies inside the fork's ball (forkRadius)
// where the body's thickness is the fork's, and the tip, which sits on
// the surface.
func girth(tree *bvh.Tree, p []linalg.Vec3, path []int, forkRadius float64) float64 {
	fork := p[path[len(path)-1]]
	var pts []linalg.Vec3
	for k := 0; k+1 < len(path); k++ {
		a, b := p[path[k]], p[path[k+1]]
		for q := 1; q <= 4; q++ {
			x := a.Add(b.Sub(a).Scale(float64(q) / 4))
			if x.Dist(fork) > forkRadius {
				pts = append(pts, x)
			}
		}
	}
	g := 0.0
	for _, r := range thickness(tree, pts) {
		if !math.IsInf(r, 0) {
			g = max(g, r)
		}
	}
	return g
}

// folded marks the joints of the chains whose tips thin marks.
func folded(n int, thin []bool, chains [][]int) []bool {
	drop := make([]bool, n)
	for tip, ok := range thin {
		if ok {
			for _, j := range chains[tip] {
				drop[j] = true
			}
		}
	}
	return drop
}
