package contraction

import (
	"sort"

	"github.com/meshrig/meshrig/linalg"
)

// kdTree answers nearest-point queries over a fixed point set. It is
// implicit: the node over idx[lo:hi] splits at mid = (lo+hi)/2 on
// axis[mid], the smaller coordinates to the left.
type kdTree struct {
	pts  []linalg.Vec3
	idx  []int32
	axis []uint8
}

// newKDTree indexes pts[ids[k]] for every k.
func newKDTree(pts []linalg.Vec3, ids []int32) *kdTree {
	t := &kdTree{pts: pts, idx: append([]int32(nil), ids...), axis: make([]uint8, len(ids))}
	t.build(0, len(ids))
	return t
}

func (t *kdTree) build(lo, hi int) {
	if hi-lo <= 1 {
		return
	}
	// Split on the axis of largest extent so long thin parts stay cheap.
	bmin, bmax := t.pts[t.idx[lo]], t.pts[t.idx[lo]]
	for _, i := range t.idx[lo:hi] {
		bmin, bmax = bmin.Min(t.pts[i]), bmax.Max(t.pts[i])
	}
	ax := 0
	for a := 1; a < 3; a++ {
		if bmax[a]-bmin[a] > bmax[ax]-bmin[ax] {
			ax = a
		}
	}
	part := t.idx[lo:hi]
	sort.Slice(part, func(a, b int) bool {
		pa, pb := t.pts[part[a]][ax], t.pts[part[b]][ax]
		return pa < pb || pa == pb && part[a] < part[b]
	})
	mid := (lo + hi) / 2
	t.axis[mid] = uint8(ax)
	t.build(lo, mid)
	t.build(mid+1, hi)
}

// nearest returns the indexed point nearest p, its squared distance, and
// whether one was found closer than the squared bound d2.
func (t *kdTree) nearest(p linalg.Vec3, d2 float64) (int32, float64, bool) {
	best, found := int32(-1), false
	var walk func(lo, hi int)
	walk = func(lo, hi int) {
		if lo >= hi {
			return
		}
		mid := (lo + hi) / 2
		q := t.pts[t.idx[mid]]
		if d := p.Sub(q).Norm2(); d < d2 {
			d2, best, found = d, t.idx[mid], true
		}
		if hi-lo == 1 {
			return
		}
		ax := t.axis[mid]
		off := p[ax] - q[ax]
		near, far := [2]int{lo, mid}, [2]int{mid + 1, hi}
		if off > 0 {
			near, far = far, near
		}
		walk(near[0], near[1])
		if off*off < d2 {
			walk(far[0], far[1])
		}
	}
	walk(0, len(t.idx))
	return best, d2, found
}
