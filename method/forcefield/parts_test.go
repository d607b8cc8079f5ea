package forcefield

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

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
	verts, faces := testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 1, 1})
	m, err := mesh.New(verts, faces)
	if err != nil {
		t.Fatal(err)
	}
	tris := m.Tris
	b := bvh.New(m.Verts, tris, make([]int32, len(tris)))
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
	vi, fi := testshape.Box(linalg.Vec3{0.375, 0.125, 0.0625}, linalg.Vec3{0.625, 0.375, 0.1875})
	for k := range fi {
		fi[k][1], fi[k][2] = fi[k][2], fi[k][1]
	}
	hollow := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 0.5, 0.25}) },
		func() ([]linalg.Vec3, [][]int) { return vi, fi })
	// One component per shell: give both the same part, so the inner
	// shell toggles parity and makes a cavity.
	b = bvh.New(hollow.Verts, hollow.Tris, make([]int32, len(hollow.Tris)))
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
