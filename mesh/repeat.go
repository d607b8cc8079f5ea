package mesh

import (
	"cmp"
	"slices"
)

// pairwiseMax is the longest polygon FirstRepeat checks pair by pair:
// cheaper than sorting for the triangles and quads of ordinary meshes,
// and no allocation.
const pairwiseMax = 16

// FirstRepeat returns the position in p of the first entry equal to an
// earlier one, or -1 when all entries differ: for a polygon, where it
// first uses a vertex twice. Long polygons are checked by sorting a copy
// of the positions, O(n log n): a pairwise check took seconds on one
// 120,000-vertex face.
func FirstRepeat(p []int) int {
	if len(p) <= pairwiseMax {
		for a := 1; a < len(p); a++ {
			for _, j := range p[:a] {
				if p[a] == j {
					return a
				}
			}
		}
		return -1
	}
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(p[a], p[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// Equal entries sit together in order of position: every one after
	// the first of its run repeats an earlier entry.
	first := -1
	for k := 1; k < len(order); k++ {
		if at := order[k]; p[at] == p[order[k-1]] && (first < 0 || at < first) {
			first = at
		}
	}
	return first
}
