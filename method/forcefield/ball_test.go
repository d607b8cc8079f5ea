package forcefield

import (
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// solid returns a field over a 32-voxel cube whose interior is the
// voxels in(x, y, z) marks, each 2 voxels from the surface.
func solid(in func(x, y, z int) bool) *field {
	const h = 1.0 / 32
	g := newGrid(linalg.Vec3{1, 1, 1}, h)
	f := &field{g: g, at: make([]int32, g.len())}
	for id := range f.at {
		f.at[id] = -1
		if x, y, z := g.coords(id); !g.padding(id) && in(x, y, z) {
			f.at[id] = int32(len(f.vox))
			f.vox = append(f.vox, int32(id))
			f.dist = append(f.dist, 2*h)
		}
	}
	return f
}

// TestSpreadPiece: in a row of rods side by side (fingers: radius 1.5
// voxels, 6 apart, the ball 8 voxels wide) the whole ball around a rod's
// middle is spread in two directions like a plate's, its own piece only
// along the rod; in a slab both views are spread in two directions.
func TestSpreadPiece(t *testing.T) {
	rods := solid(func(x, y, z int) bool {
		dx := (x-4)%6 - 3
		return x >= 4 && y >= 4 && y <= 28 && dx*dx+(z-16)*(z-16) <= 2
	})
	slab := solid(func(x, y, z int) bool { return x >= 4 && x <= 28 && y >= 4 && y <= 28 && z >= 15 && z <= 17 })
	for _, c := range []struct {
		name         string
		f            *field
		whole, piece bool // spread in two directions: λ₂ > 1.5u
	}{{"rods", rods, true, false}, {"slab", slab, true, true}} {
		i := c.f.at[c.f.g.index(13, 16, 16)]
		if i < 0 {
			t.Fatalf("%s: the middle voxel is not inside", c.name)
		}
		for _, piece := range []bool{false, true} {
			l, u := c.f.spread(i, piece)
			want := c.whole
			if piece {
				want = c.piece
			}
			t.Logf("%s, piece %v: λ = %.2f, u = %.2f", c.name, piece, l, u)
			if got := l[1] > 1.5*u; got != want {
				t.Errorf("%s, piece %v: λ = %.2f, u = %.2f: spread %v, want %v", c.name, piece, l, u, got, want)
			}
		}
	}
}
