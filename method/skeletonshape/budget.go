package skeletonshape

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// detailReach is how far, in units of the thickness at its fork, a
// branch must reach out of the body to count as a limb: shorter ones
// (ears, horns, a muzzle's bumps, a thumb's stub) are detail. A limb
// leaves its fork's sphere (reach 1) and then some; an ear of the shared
// quadrupeds reaches about one head radius.
const detailReach = 1.5

// FoldDetail removes the detail branches of s: chains from a tip to the
// first fork whose length is under detailReach times the fork's distance
// to the surface (radius, per joint), so the part is skinned to the
// fork. It repeats while forks turn into tips, never removes the root,
// and keeps at least two joints. It returns the number of joints removed.
func FoldDetail(s *static.Skeleton, radius []float64) (*static.Skeleton, int) {
	removed := 0
	for {
		n := len(s.Joints)
		if n <= 2 {
			return s, removed
		}
		adj := adjacency(n, s.Edges)
		drop := make([]bool, n)
		any := false
		for tip := 0; tip < n; tip++ {
			if len(adj[tip]) != 1 || tip == s.Root {
				continue
			}
			chain, cur, length := tipChain(s, adj, tip, func(j int) bool { return j == s.Root })
			if len(adj[cur]) < 3 || math.IsInf(radius[cur], 0) {
				continue // the whole skeleton is one chain
			}
			if length < detailReach*radius[cur] {
				for _, j := range chain {
					drop[j] = true
				}
				any = true
			}
		}
		if !any {
			return s, removed
		}
		keep := kept(drop)
		removed += n - len(keep)
		s, radius = subset(s, keep), pick(radius, keep)
	}
}

// kept returns the joints drop does not mark, in order.
func kept(drop []bool) []int {
	keep := make([]int, 0, len(drop))
	for j, d := range drop {
		if !d {
			keep = append(keep, j)
		}
	}
	return keep
}

// subset returns s restricted to the joints keep (in that order), with
// the edges between them.
func subset(s *static.Skeleton, keep []int) *static.Skeleton {
	idx := make([]int, len(s.Joints))
	for j := range idx {
		idx[j] = -1
	}
	out := &static.Skeleton{}
	for k, j := range keep {
		idx[j] = k
		out.Joints = append(out.Joints, s.Joints[j])
	}
	for _, e := range s.Edges {
		if idx[e[0]] >= 0 && idx[e[1]] >= 0 {
			out.Edges = append(out.Edges, [2]int{idx[e[0]], idx[e[1]]})
		}
	}
	out.Root = idx[s.Root]
	return out
}

func pick(v []float64, keep []int) []float64 {
	out := make([]float64, len(keep))
	for k, j := range keep {
		out[k] = v[j]
	}
	return out
}

// SetJoints brings s to n joints: joints with two bones are removed, the
// straightest first (least distance from the segment joining their
// neighbours), or the longest bones are split at their middles. With
// plane not nil a joint's mirror image goes with it and a bone's mirror
// image is split with it, so a symmetric skeleton stays symmetric; where
// one joint is left to add or remove, a joint or bone on the plane is
// taken, and only when there is none does the count win over symmetry
// (one joint unpaired). Forks, tips and the root stay; the count stops
// short of n when no joint with two bones is left to remove.
func SetJoints(s *static.Skeleton, n int, plane *Plane, d float64) int {
	mirrorOf := func(j int) int {
		if k := mirrorJoint(s, plane, j, d); k >= 0 {
			return k
		}
		return j
	}
	for len(s.Joints) > n {
		adj := adjacency(len(s.Joints), s.Edges)
		best, cost := -1, math.Inf(1)
		single, singleCost := -1, math.Inf(1)
		for j := range s.Joints {
			if len(adj[j]) != 2 || j == s.Root {
				continue
			}
			c := segDist(s.Joints[j], s.Joints[adj[j][0]], s.Joints[adj[j][1]])
			if c < singleCost {
				single, singleCost = j, c
			}
			if m := mirrorOf(j); m != j && (len(s.Joints)-2 < n || adjacentTo(adj, j, m)) {
				continue // a pair would overshoot
			}
			if c < cost {
				best, cost = j, c
			}
		}
		drop := make([]bool, len(s.Joints))
		switch {
		case best >= 0:
			drop[best], drop[mirrorOf(best)] = true, true
		case single >= 0:
			drop[single] = true
		default:
			return len(s.Joints)
		}
		r, _ := removeJoints(s, drop)
		*s = *r
	}
	for len(s.Joints) < n {
		best, length := -1, 0.0
		selfBest, selfLength := -1, 0.0
		for k, e := range s.Edges {
			l := s.Joints[e[0]].Dist(s.Joints[e[1]])
			if l > length {
				best, length = k, l
			}
			ma, mb := mirrorOf(e[0]), mirrorOf(e[1])
			if ((ma == e[0] && mb == e[1]) || (ma == e[1] && mb == e[0])) && l > selfLength {
				selfBest, selfLength = k, l
			}
		}
		if best < 0 {
			break
		}
		if n-len(s.Joints) == 1 {
			if selfBest >= 0 {
				best = selfBest
			}
			splitBone(s, best)
			continue
		}
		e := s.Edges[best]
		ma, mb := mirrorOf(e[0]), mirrorOf(e[1])
		splitBone(s, best)
		if (ma != e[0] || mb != e[1]) && (ma != e[1] || mb != e[0]) {
			for k, f := range s.Edges {
				if (f[0] == ma && f[1] == mb) || (f[0] == mb && f[1] == ma) {
					splitBone(s, k)
					break
				}
			}
		}
	}
	return len(s.Joints)
}

func adjacentTo(adj [][]int, a, b int) bool {
	for _, k := range adj[a] {
		if k == b {
			return true
		}
	}
	return false
}

// splitBone adds a joint at the middle of bone k.
func splitBone(s *static.Skeleton, k int) {
	e := s.Edges[k]
	splitBoneAt(s, k, s.Joints[e[0]].Add(s.Joints[e[1]]).Scale(0.5))
}

// splitBoneAt adds a joint at p (at the end of s.Joints, which it
// returns) that cuts bone k in two: k keeps its first end, a new bone at
// the end of s.Edges goes on to the second.
func splitBoneAt(s *static.Skeleton, k int, p linalg.Vec3) int {
	e := s.Edges[k]
	s.Joints = append(s.Joints, p)
	j := len(s.Joints) - 1
	s.Edges[k] = [2]int{e[0], j}
	s.Edges = append(s.Edges, [2]int{j, e[1]})
	return j
}
