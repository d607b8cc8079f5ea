package contraction

import (
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
)

// TestFlat: a closed slab is a plate; a capsule (normals all round its
// axis) and one side of the slab alone (normals not cancelling) are not.
func TestFlat(t *testing.T) {
	var slab [][3]int
	for x := 0; x < 6; x++ {
		for z := 0; z < 6; z++ {
			slab = append(slab, [3]int{x, 0, z})
		}
	}
	region := func(pos []linalg.Vec3, tris [][3]int, keep func(f [3]int) bool) (linalg.Vec3, sym3) {
		var kept [][3]int
		for _, f := range tris {
			if keep(f) {
				kept = append(kept, f)
			}
		}
		if len(kept) == 0 {
			t.Fatal("no faces in the region")
		}
		sum, cov := normalSpread(pos, kept)
		var s linalg.Vec3
		var c sym3
		for i := range sum {
			s = s.Add(sum[i])
			c.add(&cov[i])
		}
		return s, c
	}
	all := func([3]int) bool { return true }

	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return polycube(slab, 2) })
	s, c := region(m.Verts, m.Tris, all)
	if !flat(s, &c) {
		t.Error("a closed 6×1×6 slab is not taken for a plate")
	}
	top := func(f [3]int) bool { return m.Verts[f[0]][1] == 1 && m.Verts[f[1]][1] == 1 && m.Verts[f[2]][1] == 1 }
	if s, c := region(m.Verts, m.Tris, top); flat(s, &c) {
		t.Error("one side of the slab alone is taken for a plate")
	}
	m = testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(2, 0.5, 24, 40, 8) })
	if s, c := region(m.Verts, m.Tris, all); flat(s, &c) {
		t.Error("a capsule is taken for a plate")
	}
}
