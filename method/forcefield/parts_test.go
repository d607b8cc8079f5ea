package forcefield

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/internal/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// TestBVHMatchesScan: the nearest hit and the line crossings found
// through the tree are those of a scan of every triangle.
func TestBVHMatchesScan(t *testing.T) {
	v1, f1 := testshape.Torus(0.5, 0.2, 40, 12)
	v2, f2 := box(linalg.Vec3{-0.3, -0.3, -0.3}, linalg.Vec3{0.3, 0.3, 0.3})
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
	b := newBVH(verts, tris, part)
	if len(b.tris) != len(tris) {
		t.Fatalf("%d triangles in the tree, want %d", len(b.tris), len(tris))
	}
	all := make([]bvhTri, len(tris))
	for k, f := range tris {
		all[k] = bvhTri{a: verts[f[0]], e1: verts[f[1]].Sub(verts[f[0]]), e2: verts[f[2]].Sub(verts[f[0]]), part: part[k]}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for k := 0; k < 2000; k++ {
		o := linalg.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64()*0.6 - 0.3}
		d := linalg.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit()
		r := newRay(o, d)
		want := math.Inf(1)
		for i := range all {
			want = math.Min(want, r.hit(&all[i]))
		}
		if got := b.closest(&r); got != want {
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
		got := b.line(a, u, v, nil)
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

// TestSimple checks the simple-point test on configurations whose answer
// is known.
func TestSimple(t *testing.T) {
	nb := newNbhd()
	pos := func(dx, dy, dz int) uint32 {
		k := (dx + 1) + 3*(dy+1) + 9*(dz+1)
		if k > 13 {
			k--
		}
		return 1 << k
	}
	var plane, below uint32
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx != 0 || dy != 0 {
				plane |= pos(dx, dy, 0)
			}
			below |= pos(dx, dy, -1)
		}
	}
	for _, c := range []struct {
		name   string
		obj    uint32
		simple bool
	}{
		{"isolated point", 0, false},
		{"end of a line", pos(1, 0, 0), true},
		{"middle of a line", pos(1, 0, 0) | pos(-1, 0, 0), false},
		{"middle of a diagonal line", pos(1, 1, 1) | pos(-1, -1, -1), false},
		{"corner of a line", pos(1, 0, 0) | pos(0, 1, 0), true},
		{"inside a solid", 1<<26 - 1, false},
		{"on a face of a solid", below | plane, true},
		{"inside a plate", plane, false},
		{"two separate neighbours", pos(1, 1, 0) | pos(-1, -1, 0), false},
	} {
		if got := nb.simple(c.obj); got != c.simple {
			t.Errorf("%s: simple = %v, want %v", c.name, got, c.simple)
		}
	}
}

// TestInteriorBox: the voxel centres inside a box are exactly those the
// box contains, and a cavity gets filled.
func TestInteriorBox(t *testing.T) {
	// In unit-cube units with h = 1/16 the centres sit at (i + ½)/16, so
	// the diagonal edge x = y splitting the box's z faces runs exactly
	// through a row of column lines: only the offset lines and the vote
	// keep those columns right.
	verts, faces := box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 1, 1})
	m, err := mesh.New(verts, faces)
	if err != nil {
		t.Fatal(err)
	}
	tris := m.Tris
	b := newBVH(m.Verts, tris, make([]int32, len(tris)))
	g := newGrid(linalg.Vec3{1, 1, 1}, 1.0/16)
	inside, filled := interior(g, b)
	n := 0
	for id, in := range inside {
		if in {
			n++
			c := g.center(id)
			if c[0] < 0 || c[0] > 1 || c[1] < 0 || c[1] > 1 || c[2] < 0 || c[2] > 1 {
				t.Fatalf("voxel at %v is outside the box", c)
			}
		}
	}
	if want := 16 * 16 * 16; n != want || filled != 0 {
		t.Fatalf("%d voxels inside (%d filled), want %d", n, filled, want)
	}

	// A closed hollow ball: an outer box and an inner box of the other
	// orientation. Parity leaves the hollow empty; filling restores it.
	vi, fi := box(linalg.Vec3{0.375, 0.125, 0.0625}, linalg.Vec3{0.625, 0.375, 0.1875})
	for k := range fi {
		fi[k][1], fi[k][2] = fi[k][2], fi[k][1]
	}
	hollow := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 0.5, 0.25}) },
		func() ([]linalg.Vec3, [][]int) { return vi, fi })
	// One component per shell: give both the same part, so the inner
	// shell toggles parity and makes a cavity.
	b = newBVH(hollow.Verts, hollow.Tris, make([]int32, len(hollow.Tris)))
	g = newGrid(linalg.Vec3{1, 0.5, 0.25}, 1.0/16)
	inside, filled = interior(g, b)
	n = 0
	for _, in := range inside {
		if in {
			n++
		}
	}
	if want := 16 * 8 * 4; n != want || filled != 4*4*2 {
		t.Fatalf("hollow box: %d voxels inside, %d filled; want %d and %d", n, filled, want, 4*4*2)
	}
}

// TestFibonacci: the directions are unit, come in opposite pairs, and
// cover the sphere evenly (every direction has a ray within 25°).
func TestFibonacci(t *testing.T) {
	dirs := fibonacci(100)
	if len(dirs) != 100 {
		t.Fatalf("%d directions", len(dirs))
	}
	var sum linalg.Vec3
	for k, d := range dirs {
		if math.Abs(d.Norm()-1) > 1e-12 {
			t.Fatalf("direction %d has length %v", k, d.Norm())
		}
		sum = sum.Add(d)
	}
	if sum.Norm() > 1e-12 {
		t.Fatalf("directions sum to %v, want 0", sum)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 1000; k++ {
		q := linalg.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit()
		best := -1.0
		for _, d := range dirs {
			best = math.Max(best, d.Dot(q))
		}
		if best < math.Cos(25*math.Pi/180) {
			t.Fatalf("no ray within 25° of %v", q)
		}
	}
}
