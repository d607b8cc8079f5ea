package forcefield

import (
	"slices"

	"github.com/meshrig/meshrig/linalg"
)

// graph is a skeleton in unit-cube units: joints with their distance to
// the surface, and bones. It may have several pieces.
type graph struct {
	joints []linalg.Vec3
	radius []float64
	edges  [][2]int
}

func (gr *graph) add(p linalg.Vec3, r float64) int {
	gr.joints = append(gr.joints, p)
	gr.radius = append(gr.radius, r)
	return len(gr.joints) - 1
}

// group turns the candidate graph into the skeleton (§3.3): candidates
// are grouped by their distance spheres, one joint is kept per group,
// and the groups inherit their members' links.
//
// Groups grow from a seed, breadth first along links, over candidates
// whose sphere overlaps the seed's (|p − q| < merge·(r_p + r_q)), so a
// group is a connected stretch of the skeleton, never two limbs that
// pass close by. The sphere's radius is the candidate's local thickness
// (see thickness), which is its recorded distance to the surface
// wherever the thinned curve runs down the middle of a part. Seeds are
// taken from the lowest force up, so the seed is the group's
// lowest-force member, which the paper keeps as the joint, except that
// forks (points with more than two neighbours) seed first and represent
// their group: around a junction the force is not minimal (it points
// into the branch), and the lowest-force member would sit out on a limb.
//
// Links become bones through a spanning forest of the groups, taken
// shortest first. A link that closes a cycle is a loop of the shape (the
// thinning kept topology, §3.3: an O for a donut, not a C); it is kept
// when the cycle is longer than twice the diameters of the spheres at
// its ends — a hole wider than about half the thickness around it — with
// joints added on the chain where it would otherwise double an existing
// bone. Shorter cycles are tunnels of the voxelization (fingers that
// touch, a plate thinner than a voxel) and are dropped.
func (f *field) group(cg *candGraph, merge float64) *graph {
	nc := len(cg.cands)
	adj := make([][]int, nc)
	for _, l := range cg.links {
		if l.a != l.b {
			adj[l.a] = append(adj[l.a], l.b)
			adj[l.b] = append(adj[l.b], l.a)
		}
	}
	order := make([]int, nc)
	for c := range order {
		order[c] = c
	}
	slices.SortFunc(order, func(p, q int) int {
		if cg.branch[p] != cg.branch[q] {
			if cg.branch[p] {
				return -1
			}
			return 1
		}
		if f.less(cg.cands[p], cg.cands[q]) {
			return -1
		}
		if p == q {
			return 0
		}
		return 1
	})
	pos := func(c int) linalg.Vec3 { return f.g.center(int(f.vox[cg.cands[c]])) }

	thick := f.thickness(cg.cands)
	rad := func(c int) float64 { return thick[c] }

	gr := &graph{}
	groupOf := make([]int, nc)
	for c := range groupOf {
		groupOf[c] = -1
	}
	var queue []int
	for _, p := range order {
		if groupOf[p] >= 0 {
			continue
		}
		g := gr.add(pos(p), rad(p))
		groupOf[p] = g
		queue = append(queue[:0], p)
		for q := 0; q < len(queue); q++ {
			for _, c := range adj[queue[q]] {
				if groupOf[c] < 0 && pos(p).Dist(pos(c)) < merge*(rad(p)+rad(c)) {
					groupOf[c] = g
					queue = append(queue, c)
				}
			}
		}
	}

	// Links inside groups first (they only close loops), then between
	// groups; direct links before chains, short chains before long.
	links := slices.Clone(cg.links)
	slices.SortStableFunc(links, func(x, y link) int {
		ix, iy := groupOf[x.a] != groupOf[x.b], groupOf[y.a] != groupOf[y.b]
		if ix != iy {
			if !ix {
				return -1
			}
			return 1
		}
		return len(x.path) - len(y.path)
	})
	cand := newUnionFind(nc)
	grp := newUnionFind(len(gr.joints))
	forest := make([][]int, len(gr.joints))
	bone := make(map[[2]int]bool)
	addBone := func(a, b int) {
		gr.edges = append(gr.edges, [2]int{a, b})
		bone[[2]int{min(a, b), max(a, b)}] = true
	}
	h := f.g.h
	for _, l := range links {
		A, B := groupOf[l.a], groupOf[l.b]
		length := float64(len(l.path)+1) * h
		if A == B {
			if cand.union(l.a, l.b) || len(l.path) < 3 {
				continue
			}
			// A loop through one group: it leaves and comes back.
			if length+pos(l.a).Dist(pos(l.b)) > 8*gr.radius[A] {
				m1 := f.chainJoint(gr, l.path, len(l.path)/3)
				m2 := f.chainJoint(gr, l.path, 2*len(l.path)/3)
				addBone(A, m1)
				addBone(m1, m2)
				addBone(m2, A)
			}
			continue
		}
		if grp.union(A, B) {
			forest[A] = append(forest[A], B)
			forest[B] = append(forest[B], A)
			addBone(A, B)
			continue
		}
		if len(l.path) == 0 {
			continue
		}
		cycle := length + forestPath(gr.joints, forest, A, B)
		if cycle <= 4*(gr.radius[A]+gr.radius[B]) {
			continue
		}
		if !bone[[2]int{min(A, B), max(A, B)}] {
			addBone(A, B)
			continue
		}
		m := f.chainJoint(gr, l.path, len(l.path)/2)
		addBone(A, m)
		addBone(m, B)
	}
	return gr
}

// chainJoint adds a joint at the k-th voxel of a chain.
func (f *field) chainJoint(gr *graph, path []int32, k int) int {
	v := path[k]
	return gr.add(f.g.center(int(f.vox[v])), f.dist[v])
}

// forestPath returns the length of the path from a to b in a forest
// (joint positions as node positions), or 0 when they are not connected.
func forestPath(pos []linalg.Vec3, forest [][]int, a, b int) float64 {
	dist := map[int]float64{a: 0}
	stack := []int{a}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if u == b {
			return dist[u]
		}
		for _, v := range forest[u] {
			if _, ok := dist[v]; !ok {
				dist[v] = dist[u] + pos[u].Dist(pos[v])
				stack = append(stack, v)
			}
		}
	}
	return 0
}

// unionFind is a disjoint-set forest with path halving.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// union joins the sets of a and b and reports whether they were apart.
func (u unionFind) union(a, b int) bool {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return false
	}
	if ra < rb {
		u[rb] = ra
	} else {
		u[ra] = rb
	}
	return true
}
