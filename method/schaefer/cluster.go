package schaefer

import (
	"container/heap"
	"context"
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/spantree"
)

// faceREFs returns the Rigid Error Functions of every face in every frame
// of m: faces × frames, face t frame f at t*F+f.
func faceREFs(m *skinning.Model, tris [][3]int) []ref {
	out := make([]ref, len(tris)*m.F)
	par.For(len(tris), 512, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			tr := tris[t]
			p := [3]linalg.Vec3{m.Rest[tr[0]], m.Rest[tr[1]], m.Rest[tr[2]]}
			for f := 0; f < m.F; f++ {
				fr := m.Frame(f)
				q := [3]linalg.Vec3{fr[tr[0]], fr[tr[1]], fr[tr[2]]}
				out[t*m.F+f] = faceREF(p, q)
			}
		}
	})
	return out
}

// clustering is the state of the greedy face clustering (§3.2).
type clustering struct {
	f       int
	refs    []ref     // per cluster (indexed by its root face) × frames
	parent  []int32   // union–find over faces
	version []int32   // bumped when a cluster grows: its queued edges are dirty
	adj     [][]int32 // neighbouring clusters, by root
	count   int
}

// edge is a queued merge of clusters a and b at the versions its cost
// was computed for.
type edge struct {
	cost   float64
	a, b   int32
	va, vb int32
}

type queue []edge

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	if q[i].a != q[j].a {
		return q[i].a < q[j].a
	}
	return q[i].b < q[j].b
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(edge)) }
func (q *queue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func (c *clustering) find(i int32) int32 {
	for c.parent[i] != i {
		c.parent[i] = c.parent[c.parent[i]]
		i = c.parent[i]
	}
	return i
}

// mergedError is the summed fit error over all frames of the union of
// clusters a and b.
func (c *clustering) mergedError(a, b int32) float64 {
	var e float64
	ra, rb := c.refs[int(a)*c.f:(int(a)+1)*c.f], c.refs[int(b)*c.f:(int(b)+1)*c.f]
	for k := 0; k < c.f; k++ {
		r := ra[k]
		r.add(&rb[k])
		e += r.fitError()
	}
	return e
}

// clusterFaces greedily merges adjacent face clusters, cheapest merged
// error first, until target clusters remain (target > 0) or, without a
// target, until the next merge would take the whole clustering's fit
// error (summed over clusters and frames, per unit of total area) above
// maxErr.
// Only edges whose clusters grew since their cost was computed are priced
// again, when they reach the top (the lazy "dirty edge" rule). links adds
// edges between faces of separate shells. It returns each face's cluster
// as 0…k-1.
func clusterFaces(ctx context.Context, refs []ref, frames int, faceAdj [][2]int32, target int, maxErr float64, cap int, progress func(done, total int)) ([]int32, int, error) {
	nf := len(refs) / frames
	c := &clustering{f: frames, refs: refs, parent: make([]int32, nf), version: make([]int32, nf), adj: make([][]int32, nf), count: nf}
	for i := range c.parent {
		c.parent[i] = int32(i)
	}
	for _, e := range faceAdj {
		c.adj[e[0]] = append(c.adj[e[0]], e[1])
		c.adj[e[1]] = append(c.adj[e[1]], e[0])
	}
	// Initial costs, in parallel.
	costs := make([]float64, len(faceAdj))
	par.For(len(faceAdj), 1024, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			costs[k] = c.mergedError(faceAdj[k][0], faceAdj[k][1])
		}
	})
	q := make(queue, len(faceAdj))
	for k, e := range faceAdj {
		q[k] = edge{cost: costs[k], a: e[0], b: e[1]}
	}
	heap.Init(&q)
	// Each cluster's own error (single faces fit exactly) and the total.
	own := make([]float64, nf)
	var total, area float64
	for t := 0; t < nf; t++ {
		area += refs[t*frames].a
	}
	done := 0
	for q.Len() > 0 && (target <= 0 || c.count > target) {
		if done%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
			if progress != nil {
				progress(nf-c.count, nf-max(target, 1))
			}
		}
		e := heap.Pop(&q).(edge)
		a, b := c.find(e.a), c.find(e.b)
		if a == b {
			continue
		}
		if a != e.a || b != e.b || c.version[a] != e.va || c.version[b] != e.vb {
			// Dirty: price the current clusters and queue again.
			heap.Push(&q, edge{cost: c.mergedError(a, b), a: a, b: b, va: c.version[a], vb: c.version[b]})
			continue
		}
		grown := total + e.cost - own[a] - own[b]
		if target <= 0 && grown > maxErr*area && (cap <= 0 || c.count <= cap) {
			break
		}
		c.merge(a, b)
		own[a], total = e.cost, grown
		done++
	}
	// Number the clusters in face order.
	label := make([]int32, nf)
	id := make(map[int32]int32)
	for i := range label {
		r := c.find(int32(i))
		l, ok := id[r]
		if !ok {
			l = int32(len(id))
			id[r] = l
		}
		label[i] = l
	}
	return label, len(id), nil
}

// merge folds cluster b into a.
func (c *clustering) merge(a, b int32) {
	ra, rb := c.refs[int(a)*c.f:(int(a)+1)*c.f], c.refs[int(b)*c.f:(int(b)+1)*c.f]
	for k := range ra {
		ra[k].add(&rb[k])
	}
	c.parent[b] = a
	c.version[a]++
	c.count--
	// Neighbours of the union, each once, by root.
	merged := append(c.adj[a], c.adj[b]...)
	c.adj[b] = nil
	for k := range merged {
		merged[k] = c.find(merged[k])
	}
	sort.Slice(merged, func(i, j int) bool { return merged[i] < merged[j] })
	out := merged[:0]
	for k, x := range merged {
		if x != a && (k == 0 || x != merged[k-1]) {
			out = append(out, x)
		}
	}
	c.adj[a] = out
}

// faceGraph returns the face adjacency edges of m (each once), plus edges
// joining separate shells: the components are linked along a minimum
// spanning tree of their nearest face-centroid distances (sampled), so a
// multi-piece mesh still clusters into one graph.
func faceGraph(m *mesh.Mesh, top *mesh.Topology) [][2]int32 {
	var edges [][2]int32
	for t, adj := range top.FaceAdj {
		for _, o := range adj {
			if o > t {
				edges = append(edges, [2]int32{int32(t), int32(o)})
			}
		}
	}
	comp := make([]int, len(m.Tris))
	for t, tr := range m.Tris {
		comp[t] = top.Component[tr[0]]
	}
	// Components that own faces, and a sample of each one's faces.
	const sample = 256
	byComp := map[int][]int{}
	for t := range m.Tris {
		byComp[comp[t]] = append(byComp[comp[t]], t)
	}
	if len(byComp) < 2 {
		return edges
	}
	var comps []int
	for c := range byComp {
		comps = append(comps, c)
	}
	sort.Ints(comps)
	cent := func(t int) linalg.Vec3 {
		tr := m.Tris[t]
		return m.Verts[tr[0]].Add(m.Verts[tr[1]]).Add(m.Verts[tr[2]]).Scale(1.0 / 3)
	}
	pick := func(faces []int) []int {
		if len(faces) <= sample {
			return faces
		}
		out := make([]int, sample)
		for k := range out {
			out[k] = faces[k*len(faces)/sample]
		}
		return out
	}
	type link struct{ a, b int }
	var cand []spantree.Edge
	var links []link
	for i := range comps {
		for j := i + 1; j < len(comps); j++ {
			best, bl := math.Inf(1), link{}
			for _, a := range pick(byComp[comps[i]]) {
				for _, b := range pick(byComp[comps[j]]) {
					if d := cent(a).Dist(cent(b)); d < best {
						best, bl = d, link{a, b}
					}
				}
			}
			cand = append(cand, spantree.Edge{A: i, B: j, W: best})
			links = append(links, bl)
		}
	}
	for _, e := range spantree.Minimum(len(comps), cand) {
		for k, c := range cand {
			if c == e {
				edges = append(edges, [2]int32{int32(links[k].a), int32(links[k].b)})
				break
			}
		}
	}
	return edges
}
