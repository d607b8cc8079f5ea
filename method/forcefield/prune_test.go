package forcefield

import (
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// TestPruneThin: on a thinned set made by hand — a thick line with a
// spur thinner than a voxel and, apart, a thin octagonal ring — the spur
// goes back to the line, and the line (thick) and the ring (none of its
// points simple) stay.
func TestPruneThin(t *testing.T) {
	const h = 1.0 / 16
	g := newGrid(linalg.Vec3{1, 1, 1}, h)
	f := &field{g: g, at: make([]int32, g.len())}
	for id := range f.at {
		f.at[id] = int32(len(f.vox))
		f.vox = append(f.vox, int32(id))
	}
	f.dist = make([]float64, len(f.vox))
	keep := make([]bool, len(f.vox))
	put := func(x, y, z int, d float64) int32 {
		i := f.at[g.index(x, y, z)]
		keep[i], f.dist[i] = true, d
		return i
	}
	var line, spur, ring []int32
	for x := 2; x <= 14; x++ {
		line = append(line, put(x, 8, 8, 2*h))
	}
	for y := 9; y <= 13; y++ {
		spur = append(spur, put(8, y, 8, 0.3*h))
	}
	for _, p := range [][2]int{{4, 3}, {5, 3}, {6, 4}, {6, 5}, {5, 6}, {4, 6}, {3, 5}, {3, 4}} {
		ring = append(ring, put(p[0], p[1], 13, 0.3*h))
	}

	if n := f.pruneThin(keep, newNbhd()); n != len(spur) {
		t.Errorf("removed %d points, want the spur's %d", n, len(spur))
	}
	for _, set := range []struct {
		name string
		pts  []int32
		kept bool
	}{{"line", line, true}, {"spur", spur, false}, {"ring", ring, true}} {
		for _, i := range set.pts {
			if keep[i] != set.kept {
				t.Errorf("%s point %.3f: kept %v, want %v", set.name, g.center(int(f.vox[i])), keep[i], set.kept)
			}
		}
	}
}
