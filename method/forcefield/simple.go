package forcefield

import "math/bits"

// nbhd holds the adjacency of the 26 positions around a voxel, as bit
// masks, for the simple-point test. Position k is the k-th offset of
// the 3×3×3 cube without its centre, x fastest (the order of grid.off).
type nbhd struct {
	adj26 [26]uint32 // positions 26-adjacent to k
	adj6  [26]uint32 // positions 6-adjacent to k (face neighbours)
	n18   uint32     // the 18 positions sharing a face or an edge with the centre
	n6    uint32     // the 6 positions sharing a face with the centre
}

func newNbhd() *nbhd {
	var pos [26][3]int
	k := 0
	for dz := -1; dz <= 1; dz++ {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if dx == 0 && dy == 0 && dz == 0 {
					continue
				}
				pos[k] = [3]int{dx, dy, dz}
				k++
			}
		}
	}
	nb := &nbhd{}
	for i, p := range pos {
		l1 := abs(p[0]) + abs(p[1]) + abs(p[2])
		if l1 <= 2 {
			nb.n18 |= 1 << i
		}
		if l1 == 1 {
			nb.n6 |= 1 << i
		}
		for j, q := range pos {
			if i == j {
				continue
			}
			d := [3]int{abs(p[0] - q[0]), abs(p[1] - q[1]), abs(p[2] - q[2])}
			if max(d[0], d[1], d[2]) == 1 {
				nb.adj26[i] |= 1 << j
			}
			if d[0]+d[1]+d[2] == 1 {
				nb.adj6[i] |= 1 << j
			}
		}
	}
	return nb
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// flood returns the component of seed within mask under adjacency adj.
func flood(seed, mask uint32, adj *[26]uint32) uint32 {
	comp, front := seed, seed
	for front != 0 {
		var next uint32
		for m := front; m != 0; m &= m - 1 {
			next |= adj[bits.TrailingZeros32(m)]
		}
		next &= mask &^ comp
		comp |= next
		front = next
	}
	return comp
}

// simple reports whether a voxel whose object neighbours are obj (a bit
// per position) can be removed without changing the topology of the
// object or of the background, for 26-connected objects and 6-connected
// background (Bertrand & Malandain 1994): the object neighbours form one
// 26-component, and the background in the 18-neighbourhood has exactly
// one 6-component touching a face of the voxel. The first condition is
// the paper's "its 26-neighbor points will [not] be divided into two or
// more parts" (§3.3); the second keeps thinning from opening a cavity or
// closing a tunnel, so a torus keeps its loop.
func (nb *nbhd) simple(obj uint32) bool {
	if obj == 0 || flood(obj&-obj, obj, &nb.adj26) != obj {
		return false
	}
	bg := ^obj & nb.n18
	touch := bg & nb.n6
	if touch == 0 {
		return false
	}
	comp := flood(touch&-touch, bg, &nb.adj6)
	return touch&^comp == 0
}
