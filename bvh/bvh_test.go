package bvh

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
)

// TestBVHMatchesScan: the nearest hit and the line crossings found
// through the tree are those of a scan of every triangle.
func TestBVHMatchesScan(t *testing.T) {
	v1, f1 := testshape.Torus(0.5, 0.2, 40, 12)
	v2, f2 := testshape.Box(linalg.Vec3{-0.3, -0.3, -0.3}, linalg.Vec3{0.3, 0.3, 0.3})
	verts := append(v1, v2...)
	var tris [][3]int
	part := []int32{}
	for _, f := range f1 {
		tris = append(tris, [3]int{f[0], f[1], f[2]})
		part = append(part, 0)
	}
	for _, f := range f2 {
		tris = append(tris, [3]int{f[0] + len(v1), f[1] + len(v1), f[2] + len(v1)})
		part = append(part, 1)
	}
	b := New(verts, tris, part)
	if len(b.tris) != len(tris) {
		t.Fatalf("%d triangles in the tree, want %d", len(b.tris), len(tris))
	}
	all := make([]tri, len(tris))
	for k, f := range tris {
		all[k] = tri{a: verts[f[0]], e1: verts[f[1]].Sub(verts[f[0]]), e2: verts[f[2]].Sub(verts[f[0]]), part: part[k]}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for k := 0; k < 2000; k++ {
		o := linalg.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64()*0.6 - 0.3}
		d := linalg.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit()
		r := NewRay(o, d)
		want := math.Inf(1)
		for i := range all {
			want = math.Min(want, r.hit(&all[i]))
		}
		if got := b.Closest(&r); got != want {
			t.Fatalf("ray %d: nearest hit %v, scan finds %v", k, got, want)
		}
		if !math.IsInf(want, 1) {
			hits++
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d of 2000 rays hit: the test does not exercise the tree", hits)
	}
	for k := 0; k < 500; k++ {
		a := k % 3
		u, v := rng.Float64()*1.6-0.8, rng.Float64()*1.6-0.8
		got := b.Line(a, u, v, nil)
		n := 0
		for i := range all {
			if _, ok := lineHit(&all[i], a, (a+1)%3, (a+2)%3, u, v); ok {
				n++
			}
		}
		if len(got) != n {
			t.Fatalf("line %d: %d crossings through the tree, %d by scan", k, len(got), n)
		}
	}
}

// TestBlocked: a segment is blocked exactly when the scan finds a hit
// strictly inside it; from a box's centre, a segment to a point inside
// is clear and one to a point outside crosses a face.
func TestBlocked(t *testing.T) {
	verts, faces := testshape.Box(linalg.Vec3{-1, -1, -1}, linalg.Vec3{1, 1, 1})
	var tris [][3]int
	for _, f := range faces {
		tris = append(tris, [3]int{f[0], f[1], f[2]})
	}
	b := New(verts, tris, nil)
	all := make([]tri, len(tris))
	for k, f := range tris {
		all[k] = tri{a: verts[f[0]], e1: verts[f[1]].Sub(verts[f[0]]), e2: verts[f[2]].Sub(verts[f[0]])}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var clear, blocked int
	for k := 0; k < 2000; k++ {
		o := linalg.Vec3{rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5}
		e := linalg.Vec3{rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5}
		r := NewRay(o, e.Sub(o))
		want := false
		for i := range all {
			if h := r.hit(&all[i]); h > 1e-9 && h < 1-1e-9 {
				want = true
			}
		}
		if got := b.Blocked(&r, 1e-9, 1-1e-9); got != want {
			t.Fatalf("segment %v–%v: blocked %v, scan says %v", o, e, got, want)
		}
		if want {
			blocked++
		} else {
			clear++
		}
	}
	if clear < 200 || blocked < 200 {
		t.Fatalf("%d clear and %d blocked segments: the test does not exercise both", clear, blocked)
	}
	in := NewRay(linalg.Vec3{}, linalg.Vec3{0.9, 0.5, 0})
	out := NewRay(linalg.Vec3{}, linalg.Vec3{1.1, 0.5, 0})
	if b.Blocked(&in, 0, 1) || !b.Blocked(&out, 0, 1) {
		t.Error("from the centre: a point inside is hidden or one outside is visible")
	}
}

// TestRefit: a tree built on one pose and refitted to a strongly
// deformed one (twisted and stretched) answers as a tree built on the
// deformed pose, and as a scan of its triangles.
func TestRefit(t *testing.T) {
	verts, faces := testshape.Torus(0.5, 0.2, 40, 12)
	var tris [][3]int
	for _, f := range faces {
		tris = append(tris, [3]int{f[0], f[1], f[2]})
	}
	moved := make([]linalg.Vec3, len(verts))
	for i, p := range verts {
		a := 2 * p[0] // twist about x, stretch along it
		c, s := math.Cos(a), math.Sin(a)
		moved[i] = linalg.Vec3{1.5 * p[0], c*p[1] - s*p[2], s*p[1] + c*p[2]}
	}
	refit := New(verts, tris, nil).Refit(moved)
	fresh := New(moved, tris, nil)
	all := make([]tri, len(tris))
	for k, f := range tris {
		all[k] = tri{a: moved[f[0]], e1: moved[f[1]].Sub(moved[f[0]]), e2: moved[f[2]].Sub(moved[f[0]])}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	hits := 0
	for k := 0; k < 2000; k++ {
		o := linalg.Vec3{rng.Float64()*1.6 - 0.8, rng.Float64() - 0.5, rng.Float64() - 0.5}
		d := linalg.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit()
		r := NewRay(o, d)
		want := math.Inf(1)
		for i := range all {
			want = math.Min(want, r.hit(&all[i]))
		}
		if got, fr := refit.Closest(&r), fresh.Closest(&r); got != want || fr != want {
			t.Fatalf("ray %d: refitted tree %v, fresh tree %v, scan %v", k, got, fr, want)
		}
		if b := refit.Blocked(&r, 0, 0.3); b != (want < 0.3) {
			t.Fatalf("ray %d: blocked within 0.3 %v, nearest hit %v", k, b, want)
		}
		if !math.IsInf(want, 1) {
			hits++
		}
	}
	if hits < 500 {
		t.Fatalf("only %d of 2000 rays hit", hits)
	}
}

// TestBlockedFrom: rays from a vertex of a fan, grazing its triangles
// (where rounding can put their hit just beyond 0), are not blocked by
// them; a sheet above the fan still blocks.
func TestBlockedFrom(t *testing.T) {
	verts := []linalg.Vec3{{0, 0, 0}}
	var tris [][3]int
	const n = 12
	for k := 0; k < n; k++ {
		a := 2 * math.Pi * float64(k) / n
		verts = append(verts, linalg.Vec3{math.Cos(a), math.Sin(a), 0.1 * math.Sin(3*a)})
		tris = append(tris, [3]int{1 + k, 1 + (k+1)%n, 0}) // the centre as corner c
	}
	top := len(verts)
	verts = append(verts, linalg.Vec3{-2, -2, 1}, linalg.Vec3{2, -2, 1}, linalg.Vec3{0, 3, 1})
	tris = append(tris, [3]int{top, top + 1, top + 2})
	b := New(verts, tris, nil)
	rng := rand.New(rand.NewPCG(7, 8))
	for k := 0; k < 2000; k++ {
		e := linalg.Vec3{rng.Float64()*2 - 1, rng.Float64()*2 - 1, 0}
		e[2] = 0.1*math.Sin(3*math.Atan2(e[1], e[0]))*e.Norm() + (rng.Float64()-0.5)*1e-9
		r := NewRay(verts[0], e.Scale(1e-3))
		if b.BlockedFrom(&r, 0, 0, 1) {
			t.Fatalf("ray %d from the fan's centre toward %v: blocked by its own fan", k, e)
		}
	}
	up := NewRay(verts[0], linalg.Vec3{0.1, 0.2, 2})
	if !b.BlockedFrom(&up, 0, 0, 1) {
		t.Error("the sheet above does not block")
	}
}

// TestRayInPlane: a ray lying in a triangle's plane meets it along a
// segment, where Möller–Trumbore divides rounding noise by rounding
// noise; the hit must be a miss or a point of the triangle, never a
// distance past it. The first triangle is the force field's fuzz find
// (a tip extended to 1.8 in a unit cube); the rest are random triangles
// with rays drawn in their planes.
func TestRayInPlane(t *testing.T) {
	type tc struct{ a, b, c, o, d linalg.Vec3 }
	cases := []tc{{
		a: linalg.Vec3{0.25, 0.045, 0.255}, b: linalg.Vec3{1, 0.15, 0.15}, c: linalg.Vec3{0.94, 0.255, 0.045},
		o: linalg.Vec3{0.9375, 0.15, 0.15}, d: linalg.Vec3{1, 0, 0},
	}}
	rng := rand.New(rand.NewPCG(9, 10))
	rnd := func() linalg.Vec3 { return linalg.Vec3{rng.Float64(), rng.Float64(), rng.Float64()} }
	for k := 0; k < 2000; k++ {
		a, b, c := rnd(), rnd(), rnd()
		// A point of the plane and a direction in it.
		o := a.Add(b.Sub(a).Scale(rng.Float64()*2 - 0.5)).Add(c.Sub(a).Scale(rng.Float64()*2 - 0.5))
		d := b.Sub(a).Scale(rng.NormFloat64()).Add(c.Sub(a).Scale(rng.NormFloat64()))
		cases = append(cases, tc{a, b, c, o, d})
	}
	for k, c := range cases {
		b := New([]linalg.Vec3{c.a, c.b, c.c}, [][3]int{{0, 1, 2}}, nil)
		r := NewRay(c.o, c.d)
		h := b.Closest(&r)
		if math.IsInf(h, 1) {
			continue
		}
		if d := triDist(c.o.Add(c.d.Scale(h)), c.a, c.b, c.c); d > 1e-9 {
			t.Fatalf("case %d: ray %v + t·%v in the plane of %v, %v, %v: hit at t = %v, %.3g off the triangle", k, c.o, c.d, c.a, c.b, c.c, h, d)
		}
	}
}

// triDist is the distance from p to triangle abc, by the closest point
// on its plane when that lies inside and by its edges otherwise.
func triDist(p, a, b, c linalg.Vec3) float64 {
	seg := func(p, a, b linalg.Vec3) float64 {
		ab := b.Sub(a)
		s := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/ab.Dot(ab)))
		return p.Dist(a.Add(ab.Scale(s)))
	}
	d := math.Min(seg(p, a, b), math.Min(seg(p, b, c), seg(p, c, a)))
	n := b.Sub(a).Cross(c.Sub(a))
	if n.Norm() == 0 {
		return d
	}
	n = n.Unit()
	q := p.Sub(n.Scale(p.Sub(a).Dot(n)))
	inside := true
	for _, e := range [3][2]linalg.Vec3{{a, b}, {b, c}, {c, a}} {
		inside = inside && e[1].Sub(e[0]).Cross(q.Sub(e[0])).Dot(n) >= 0
	}
	if inside {
		return math.Min(d, p.Dist(q))
	}
	return d
}
