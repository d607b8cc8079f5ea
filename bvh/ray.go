package bvh

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Ray is a query ray with its reciprocal direction, a zero component
// replaced by a huge finite value so slab distances are never NaN.
type Ray struct {
	o, d, inv linalg.Vec3
	norm      float64 // |d|
}

// NewRay returns the ray from o in direction d (not necessarily unit:
// distances come in units of |d|).
func NewRay(o, d linalg.Vec3) Ray {
	r := Ray{o: o, d: d, norm: d.Norm()}
	for a := 0; a < 3; a++ {
		r.inv[a] = 1 / d[a]
		if d[a] == 0 {
			r.inv[a] = math.Copysign(1e300, d[a])
		}
	}
	return r
}

// enter returns where r enters the node's box within [0, tmax), or +Inf
// when it misses. Branch-free min and max: the comparisons are
// unpredictable, and mispredicted branches cost more than the arithmetic.
func (r *Ray) enter(nd *node, tmax float64) float64 {
	ax := (nd.lo[0] - r.o[0]) * r.inv[0]
	bx := (nd.hi[0] - r.o[0]) * r.inv[0]
	ay := (nd.lo[1] - r.o[1]) * r.inv[1]
	by := (nd.hi[1] - r.o[1]) * r.inv[1]
	az := (nd.lo[2] - r.o[2]) * r.inv[2]
	bz := (nd.hi[2] - r.o[2]) * r.inv[2]
	t0 := max(0, min(ax, bx), min(ay, by), min(az, bz))
	t1 := min(tmax, max(ax, bx), max(ay, by), max(az, bz))
	if t0 > t1 {
		return math.Inf(1)
	}
	return t0
}

// parallel bounds |det| / (|d|·|e1|·|e2|), the sine of the angle between
// the ray and the triangle's plane, below which the ray counts as lying
// in the plane: there det is rounding noise (about 10⁻¹⁵ of that scale),
// and so are the u, v and t divided by it. Such a ray only grazes the
// triangle; on a closed surface it crosses the triangles around it.
const parallel = 1e-12

// hit returns the ray parameter where r meets tr (Möller–Trumbore, edges
// included), or +Inf; a ray in the triangle's plane misses it.
func (r *Ray) hit(tr *tri) float64 {
	p := r.d.Cross(tr.e2)
	det := tr.e1.Dot(p)
	if det == 0 {
		return math.Inf(1)
	}
	inv := 1 / det
	s := r.o.Sub(tr.a)
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return math.Inf(1)
	}
	q := s.Cross(tr.e1)
	v := r.d.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return math.Inf(1)
	}
	t := tr.e2.Dot(q) * inv
	if t <= 0 {
		return math.Inf(1)
	}
	// Tested last, on the few candidates that pass, so misses pay
	// nothing.
	if math.Abs(det) <= parallel*r.norm*math.Sqrt(tr.e1.Dot(tr.e1)*tr.e2.Dot(tr.e2)) {
		return math.Inf(1)
	}
	return t
}

// Closest returns the distance along r to the nearest triangle, or +Inf.
// Children are visited near first; a deferred box whose entry is beyond
// the best hit found meanwhile is skipped without a second test.
func (b *Tree) Closest(r *Ray) float64 {
	best := math.Inf(1)
	if len(b.nodes) == 0 || r.enter(&b.nodes[0], best) == best {
		return best
	}
	type deferred struct {
		n int32
		t float64
	}
	stack := make([]deferred, 0, 64) // grows only for a pathological tree
	n := int32(0)
	for {
		nd := &b.nodes[n]
		if nd.count > 0 {
			for k := nd.first; k < nd.first+nd.count; k++ {
				if t := r.hit(&b.tris[k]); t < best {
					best = t
				}
			}
		} else {
			l, rt := n+1, nd.first
			tl := r.enter(&b.nodes[l], best)
			tr := r.enter(&b.nodes[rt], best)
			if tl > tr {
				l, rt, tl, tr = rt, l, tr, tl
			}
			if tl < best {
				if tr < best {
					stack = append(stack, deferred{rt, tr})
				}
				n = l
				continue
			}
		}
		for {
			if len(stack) == 0 {
				return best
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.t < best {
				n = top.n
				break
			}
		}
	}
}

// Blocked reports whether r meets a triangle at a distance strictly
// between tmin and tmax: whether the segment between those points of r
// passes through the surface.
func (b *Tree) Blocked(r *Ray, tmin, tmax float64) bool {
	return b.BlockedFrom(r, -1, tmin, tmax)
}

// BlockedFrom is Blocked for a ray that starts at mesh vertex v: the
// triangles around v, which the ray leaves at distance 0 (up to
// rounding, which can put a grazing one just beyond it), do not count.
func (b *Tree) BlockedFrom(r *Ray, v int32, tmin, tmax float64) bool {
	if len(b.nodes) == 0 {
		return false
	}
	stack := make([]int32, 1, 64)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &b.nodes[n]
		if math.IsInf(r.enter(nd, tmax), 1) {
			continue
		}
		if nd.count == 0 {
			stack = append(stack, nd.first, n+1)
			continue
		}
		for k := nd.first; k < nd.first+nd.count; k++ {
			if c := b.corner[k]; c[0] == v || c[1] == v || c[2] == v {
				continue
			}
			if t := r.hit(&b.tris[k]); t > tmin && t < tmax {
				return true
			}
		}
	}
	return false
}

// Crossing is where an axis-parallel line passes through a triangle:
// the coordinate along the line and the triangle's mesh component.
type Crossing struct {
	T    float64
	Part int32
}

// Line appends to out every Crossing of the line {x_b = u, x_c = v}
// (b, c the axes other than a) with the triangles, in no particular
// order. A line through an edge or corner exactly may count it twice or
// not at all; callers jitter u, v and vote over axes.
func (b *Tree) Line(a int, u, v float64, out []Crossing) []Crossing {
	if len(b.nodes) == 0 {
		return out
	}
	ax, bx := (a+1)%3, (a+2)%3
	stack := make([]int32, 1, 64)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &b.nodes[n]
		if u < nd.lo[ax] || u > nd.hi[ax] || v < nd.lo[bx] || v > nd.hi[bx] {
			continue
		}
		if nd.count == 0 {
			stack = append(stack, nd.first, n+1)
			continue
		}
		for k := nd.first; k < nd.first+nd.count; k++ {
			if t, ok := lineHit(&b.tris[k], a, ax, bx, u, v); ok {
				out = append(out, Crossing{T: t, Part: b.tris[k].part})
			}
		}
	}
	return out
}

// lineHit tests the triangle projected along axis a for the point (u, v)
// by the signs of its barycentric coordinates, then interpolates x_a.
func lineHit(tr *tri, a, ax, bx int, u, v float64) (float64, bool) {
	// Barycentrics of (u, v) in the projected triangle a, a+e1, a+e2.
	pu, pv := u-tr.a[ax], v-tr.a[bx]
	det := tr.e1[ax]*tr.e2[bx] - tr.e1[bx]*tr.e2[ax]
	if det == 0 {
		return 0, false // the triangle is edge-on to the line
	}
	s := (pu*tr.e2[bx] - pv*tr.e2[ax]) / det
	w := (tr.e1[ax]*pv - tr.e1[bx]*pu) / det
	if s < 0 || w < 0 || s+w > 1 {
		return 0, false
	}
	return tr.a[a] + s*tr.e1[a] + w*tr.e2[a], true
}
