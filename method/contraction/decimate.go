package contraction

import (
	"context"
	"slices"

	"github.com/meshrig/meshrig/linalg"
)

// decimate simplifies a triangle mesh to at most target vertices by
// half-edge collapses priced with Garland & Heckbert's plane quadrics
// (the QEM simplification the Collada paper uses to downsample, §6.1),
// so the contraction's least-squares systems stay small on dense scans
// while the shape, its branches and its tunnels are kept. A collapse is
// refused when it would break the link condition (pinch the surface) or
// flip a face, so the result stays a manifold where the input is one;
// it may stop above target when no allowed collapse is left.
//
// It returns the kept positions and triangles, and for each input
// vertex the output vertex it merged into (−1 for vertices on no
// triangle); or ctx's error when ctx ends (a dense scan takes minutes).
func decimate(ctx context.Context, pos []linalg.Vec3, tris [][3]int, target int) ([]linalg.Vec3, [][3]int, []int32, error) {
	d := newDecimator(pos, tris)
	for pops := 1; d.h.Len() > 0 && d.alive > target; pops++ {
		if pops%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
		}
		e := d.h.pop()
		u, v := e.from, e.to
		if d.dead[u] || d.dead[v] || e.sf != d.stamp[u] || e.st != d.stamp[v] || !d.allowed(u, v) {
			continue
		}
		d.collapse(u, v)
	}
	pos, tris, to := d.result()
	return pos, tris, to, nil
}

// decimator is the state of decimate.
type decimator struct {
	pos    []linalg.Vec3
	faces  [][3]int32
	gone   []bool    // per face
	vfaces [][]int32 // live faces of each vertex (pruned lazily)
	q      []quadric
	owner  []int32 // union–find: the vertex each one merged into
	dead   []bool
	stamp  []uint32
	alive  int
	h      minHeap[collapseEntry]
	nb     []int32 // scratch
}

func newDecimator(pos []linalg.Vec3, tris [][3]int) *decimator {
	n := len(pos)
	d := &decimator{
		pos:    pos,
		faces:  make([][3]int32, len(tris)),
		gone:   make([]bool, len(tris)),
		vfaces: make([][]int32, n),
		q:      make([]quadric, n),
		owner:  make([]int32, n),
		dead:   make([]bool, n),
		stamp:  make([]uint32, n),
		h:      minHeap[collapseEntry]{less: collapseLess},
	}
	used := make([]bool, n)
	for t, f := range tris {
		d.faces[t] = [3]int32{int32(f[0]), int32(f[1]), int32(f[2])}
		// Area-weighted plane quadric: flat regions cost nothing to
		// simplify, creases and thin parts a lot.
		nrm := pos[f[1]].Sub(pos[f[0]]).Cross(pos[f[2]].Sub(pos[f[0]]))
		area := nrm.Norm() / 2
		var pq quadric
		if area > 0 {
			pq = planeQuadric(nrm.Scale(1/(2*area)), pos[f[0]], area)
		}
		for _, i := range f {
			d.vfaces[i] = append(d.vfaces[i], int32(t))
			d.q[i].add(&pq)
			used[i] = true
		}
	}
	for i := range d.owner {
		d.owner[i] = int32(i)
		if used[i] {
			d.alive++
		} else {
			d.dead[i] = true
		}
	}
	for t := range d.faces {
		f := d.faces[t]
		for k := 0; k < 3; k++ {
			// Each edge once: a manifold edge runs a→b in one of its
			// faces and b→a in the other.
			if a, b := f[k], f[(k+1)%3]; a < b {
				d.h.items = append(d.h.items, d.entry(a, b), d.entry(b, a))
			}
		}
	}
	d.h.init()
	return d
}

// entry prices the collapse u → v: the squared distances of v's position
// from the planes u and v stand for.
func (d *decimator) entry(u, v int32) collapseEntry {
	q := d.q[u]
	q.add(&d.q[v])
	return collapseEntry{cost: q.eval(d.pos[v]), from: u, to: v, sf: d.stamp[u], st: d.stamp[v]}
}

// liveFaces prunes collapsed faces from i's list and returns it.
func (d *decimator) liveFaces(i int32) []int32 {
	d.vfaces[i] = slices.DeleteFunc(d.vfaces[i], func(f int32) bool { return d.gone[f] })
	return d.vfaces[i]
}

// neighbours returns the vertices sharing a live face with i, reusing
// out's storage.
func (d *decimator) neighbours(i int32, out []int32) []int32 {
	out = out[:0]
	for _, f := range d.liveFaces(i) {
		for _, k := range d.faces[f] {
			if k != i && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// allowed reports whether u → v keeps the surface a manifold without
// folds: the faces on edge uv are the only ones that vanish (at most
// two, and u and v share no neighbour but their apexes — the link
// condition), and no face that u keeps turns over or becomes a sliver.
func (d *decimator) allowed(u, v int32) bool {
	var apex [2]int32
	shared := 0
	for _, f := range d.liveFaces(u) {
		fc := d.faces[f]
		if fc[0] != v && fc[1] != v && fc[2] != v {
			continue
		}
		if shared == 2 {
			return false // a non-manifold edge
		}
		for _, k := range fc {
			if k != u && k != v {
				apex[shared] = k
			}
		}
		shared++
	}
	if shared == 0 {
		return false
	}
	d.nb = d.neighbours(u, d.nb)
	vn := d.neighbours(v, nil)
	for _, k := range d.nb {
		if k != v && slices.Contains(vn, k) && k != apex[0] && (shared < 2 || k != apex[1]) {
			return false
		}
	}
	if len(d.nb) <= 3 || len(vn) <= 3 {
		return false // would leave a tetrahedron's worth or less
	}
	pv := d.pos[v]
	for _, f := range d.vfaces[u] {
		fc := d.faces[f]
		if fc[0] == v || fc[1] == v || fc[2] == v {
			continue
		}
		var p, q [3]linalg.Vec3
		for k, i := range fc {
			p[k] = d.pos[i]
			q[k] = p[k]
			if i == u {
				q[k] = pv
			}
		}
		before := p[1].Sub(p[0]).Cross(p[2].Sub(p[0]))
		after := q[1].Sub(q[0]).Cross(q[2].Sub(q[0]))
		if after.Dot(before) < 0.2*before.Norm()*after.Norm() || after.Norm2() < 1e-12*before.Norm2() {
			return false
		}
	}
	return true
}

// collapse merges u into v.
func (d *decimator) collapse(u, v int32) {
	for _, f := range d.vfaces[u] {
		fc := &d.faces[f]
		if fc[0] == v || fc[1] == v || fc[2] == v {
			d.gone[f] = true
			continue
		}
		for k := range fc {
			if fc[k] == u {
				fc[k] = v
			}
		}
		d.vfaces[v] = append(d.vfaces[v], f)
	}
	d.q[v].add(&d.q[u])
	d.owner[u] = v
	d.dead[u] = true
	d.vfaces[u] = nil
	d.alive--
	d.stamp[v]++
	// Only collapses involving v changed price (its quadric grew).
	for _, k := range d.neighbours(v, d.nb) {
		d.h.push(d.entry(v, k))
		d.h.push(d.entry(k, v))
	}
}

func (d *decimator) find(i int32) int32 {
	for d.owner[i] != i {
		d.owner[i] = d.owner[d.owner[i]]
		i = d.owner[i]
	}
	return i
}

// result compacts the live vertices and faces.
func (d *decimator) result() ([]linalg.Vec3, [][3]int, []int32) {
	index := make([]int32, len(d.pos))
	var pos []linalg.Vec3
	for i := range index {
		index[i] = -1
		if !d.dead[i] {
			index[i] = int32(len(pos))
			pos = append(pos, d.pos[i])
		}
	}
	var tris [][3]int
	for f, fc := range d.faces {
		if !d.gone[f] {
			tris = append(tris, [3]int{int(index[fc[0]]), int(index[fc[1]]), int(index[fc[2]])})
		}
	}
	to := make([]int32, len(d.pos))
	for i := range to {
		to[i] = -1
		if r := d.find(int32(i)); !d.dead[r] {
			to[i] = index[r]
		}
	}
	return pos, tris, to
}
