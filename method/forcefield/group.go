package forcefield

import (
	"math"
	"slices"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
)

// graph is a skeleton in unit-cube units: joints with their distance to
// the surface, and bones. It may have several pieces.
type graph struct {
	joints []linalg.Vec3
	radius []float64
	edges  [][2]int
	// paths holds, per bone, the thinned curve it stands for: the points
	// strictly between its joints, from edges[k][0]'s side, with their
	// distances to the surface. Bones that join pieces have none.
	paths []polyline
	// step is the spacing of points along bones' curves (a voxel).
	step float64
}

// polyline is a run of voxel centres and their recorded distances.
type polyline struct {
	pts []linalg.Vec3
	rad []float64
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
// wherever the thinned curve runs down the middle of a part, and at
// least a voxel. Seeds are
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
//
// Every bone keeps the stretch of thinned curve it stands for, from one
// group's joint through its members to the other's (graph.paths), for
// the refinements that follow (refine.go).
func (f *field) group(cg *candGraph, merge float64) *graph {
	nc := len(cg.cands)
	type step struct{ c, link int }
	adj := make([][]step, nc)
	for k, l := range cg.links {
		if l.a != l.b {
			adj[l.a] = append(adj[l.a], step{l.b, k})
			adj[l.b] = append(adj[l.b], step{l.a, k})
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
	// Distances come from voxel centres, good to about a voxel: a part
	// thinner than that has candidates every voxel or two from noise,
	// and a sphere of a voxel groups them.
	rad := func(c int) float64 { return max(thick[c], f.g.h) }

	gr := &graph{step: f.g.h}
	groupOf := make([]int, nc)
	// up is the link through which the group's search reached each
	// candidate (-1 for the seed), so the thinned curve from a group's
	// joint to any member can be walked back.
	up := make([]int, nc)
	for c := range groupOf {
		groupOf[c], up[c] = -1, -1
	}
	var queue, seed []int
	for _, p := range order {
		if groupOf[p] >= 0 {
			continue
		}
		g := gr.add(pos(p), rad(p))
		seed = append(seed, p)
		groupOf[p] = g
		queue = append(queue[:0], p)
		for q := 0; q < len(queue); q++ {
			for _, s := range adj[queue[q]] {
				c := s.c
				if groupOf[c] < 0 && pos(p).Dist(pos(c)) < merge*(rad(p)+rad(c)) {
					groupOf[c], up[c] = g, s.link
					queue = append(queue, c)
				}
			}
		}
	}
	// toward returns the voxels of the thinned curve from c's group joint
	// (excluded) to c (included).
	toward := func(c int) []int32 {
		var rev []int32
		for up[c] >= 0 {
			l := cg.links[up[c]]
			rev = append(rev, cg.cands[c])
			from := l.a
			if from == c {
				from = l.b
				for _, v := range l.path {
					rev = append(rev, v)
				}
			} else {
				for k := len(l.path) - 1; k >= 0; k-- {
					rev = append(rev, l.path[k])
				}
			}
			c = from
		}
		slices.Reverse(rev)
		return rev
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
	addBone := func(a, b int, pl polyline) {
		gr.edges = append(gr.edges, [2]int{a, b})
		gr.paths = append(gr.paths, pl)
		bone[[2]int{min(a, b), max(a, b)}] = true
	}
	// along is the thinned curve a link stands for between its groups'
	// joints: from a's joint through the group to l.a, the link's own
	// chain, and through b's group to its joint.
	along := func(l link) polyline {
		vs := toward(l.a)
		vs = append(vs, l.path...)
		back := toward(l.b)
		slices.Reverse(back)
		return f.polyline(append(vs, back...))
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
				k1, k2 := len(l.path)/3, 2*len(l.path)/3
				m1 := f.chainJoint(gr, l.path, k1)
				m2 := f.chainJoint(gr, l.path, k2)
				addBone(A, m1, f.polyline(l.path[:k1]))
				addBone(m1, m2, f.polyline(l.path[k1+1:k2]))
				addBone(m2, A, f.polyline(l.path[k2+1:]))
			}
			continue
		}
		if grp.union(A, B) {
			forest[A] = append(forest[A], B)
			forest[B] = append(forest[B], A)
			addBone(A, B, along(l))
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
			addBone(A, B, along(l))
			continue
		}
		k := len(l.path) / 2
		m := f.chainJoint(gr, l.path, k)
		addBone(A, m, f.polyline(l.path[:k]))
		addBone(m, B, f.polyline(l.path[k+1:]))
	}
	// A curve's end that a group took in while it lies outside the
	// seed's own sphere may stand for a limb as long as the body is
	// thick, or a tube's end near a junction; grouping would leave the
	// limb without its end. It keeps a joint of its own when the part
	// reaches out of the seed's sphere by at least its own diameter,
	// counting from the end to the surface along the curve (a bump of a
	// lumpy body does not) and is at least two voxels thick (thinner
	// ends are the voxel grid's noise).
	for c, g := range groupOf {
		p := seed[g]
		if c == p || !cg.end[c] || thick[c] < 2*f.g.h || pos(c).Dist(pos(p)) <= rad(p) {
			continue
		}
		vs := toward(c)
		if f.reach(vs, thick[c])+pos(c).Dist(pos(p))-rad(p) < 2*rad(c) {
			continue
		}
		j := gr.add(pos(c), rad(c))
		gr.edges = append(gr.edges, [2]int{g, j})
		gr.paths = append(gr.paths, f.polyline(vs[:len(vs)-1]))
	}
	return gr
}

// reach returns how far the surface lies beyond the end of the curve vs
// (interior voxels, the end last), along the curve's direction over its
// last two radii r (two voxels at least); 0 when it cannot tell.
func (f *field) reach(vs []int32, r float64) float64 {
	end := f.g.center(int(f.vox[vs[len(vs)-1]]))
	back := end
	for k := len(vs) - 2; k >= 0; k-- {
		back = f.g.center(int(f.vox[vs[k]]))
		if back.Dist(end) >= max(2*r, 2*f.g.h) {
			break
		}
	}
	d := end.Sub(back)
	if d.Norm() == 0 {
		return 0
	}
	ray := bvh.NewRay(end, d.Scale(1/d.Norm()))
	if t := f.b.Closest(&ray); !math.IsInf(t, 1) {
		return t
	}
	return 0
}

// chainJoint adds a joint at the k-th voxel of a chain.
func (f *field) chainJoint(gr *graph, path []int32, k int) int {
	v := path[k]
	return gr.add(f.g.center(int(f.vox[v])), f.dist[v])
}

// polyline returns the centres and distances of a run of interior voxels.
func (f *field) polyline(path []int32) polyline {
	pl := polyline{pts: make([]linalg.Vec3, len(path)), rad: make([]float64, len(path))}
	for k, v := range path {
		pl.pts[k] = f.g.center(int(f.vox[v]))
		pl.rad[k] = f.dist[v]
	}
	return pl
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
