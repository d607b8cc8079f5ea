package skeletonshape

import "github.com/meshrig/meshrig/method/static"

// adjacency lists each joint's neighbours.
func adjacency(n int, edges [][2]int) [][]int {
	adj := make([][]int, n)
	for _, e := range edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	return adj
}

// removeJoints returns s without the joints marked in drop: a removed
// joint's neighbours are joined to its first kept neighbour (a joint with
// two bones becomes one bone), edges renumbered, duplicates and loops
// dropped. The root must not be dropped. idx maps each old joint to the
// new joint it became or was merged into.
func removeJoints(s *static.Skeleton, drop []bool) (out *static.Skeleton, idx []int) {
	n := len(s.Joints)
	// Union each dropped joint into a kept neighbour, walking chains.
	rep := make([]int, n)
	for j := range rep {
		rep[j] = j
	}
	var find func(int) int
	find = func(j int) int {
		for rep[j] != j {
			rep[j] = rep[rep[j]]
			j = rep[j]
		}
		return j
	}
	adj := adjacency(n, s.Edges)
	for changed := true; changed; {
		changed = false
		for j := 0; j < n; j++ {
			if !drop[j] || find(j) != j {
				continue
			}
			for _, k := range adj[j] {
				if r := find(k); r != j {
					rep[j] = r
					changed = true
					break
				}
			}
		}
	}
	idx = make([]int, n)
	out = &static.Skeleton{}
	for j := 0; j < n; j++ {
		idx[j] = -1
		if find(j) == j {
			idx[j] = len(out.Joints)
			out.Joints = append(out.Joints, s.Joints[j])
		}
	}
	seen := map[[2]int]bool{}
	add := func(a, b int) {
		if a == b {
			return
		}
		k := [2]int{min(a, b), max(a, b)}
		if !seen[k] {
			seen[k] = true
			out.Edges = append(out.Edges, [2]int{a, b})
		}
	}
	// A dropped joint's other neighbours hang from its representative.
	for _, e := range s.Edges {
		add(idx[find(e[0])], idx[find(e[1])])
	}
	out.Root = idx[find(s.Root)]
	for j := range idx {
		idx[j] = idx[find(j)]
	}
	return out, idx
}
