package stretch

import (
	"sort"

	"github.com/meshrig/meshrig/rig"
)

// tree is what the fit reads of the skeleton, derived once: each joint's
// parent (-1 for a root), its ancestors-or-self from itself up (chain),
// its descendants in index order (below), and every joint before its
// parent, deepest first (up) — the order the moments are summed up the
// tree in and the factor eliminates.
type tree struct {
	parent []int
	chain  [][]int
	below  [][]int
	up     []int
}

func newTree(sk *rig.Skeleton) *tree {
	nj := sk.Len()
	t := &tree{parent: make([]int, nj), chain: make([][]int, nj), below: make([][]int, nj), up: make([]int, nj)}
	for k, jt := range sk.Joints {
		t.parent[k] = int(jt.Parent)
		for j := k; j != int(rig.NoParent); j = int(sk.Joints[j].Parent) {
			t.chain[k] = append(t.chain[k], j)
			if j != k {
				t.below[j] = append(t.below[j], k)
			}
		}
		t.up[k] = k
	}
	sort.SliceStable(t.up, func(a, b int) bool { return len(t.chain[t.up[a]]) > len(t.chain[t.up[b]]) })
	return t
}
