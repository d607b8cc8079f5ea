package forcefield

// pruneThin continues the thinning of keep through the parts thinner
// than a voxel: a kept point whose distance to the surface is under half
// a voxel edge goes whenever its removal keeps the local topology (a
// simple point), even when it is a joint candidate or a kept curve end.
// Such a part — a finger or a toe about one voxel across — is below the
// grid's resolution (the paper, §5: at a fixed voxel size "tiny details
// of the model may be ignored"): its force minima and forks come from
// which voxel centres happen to fall inside it, and would give a hand a
// joint per voxel. So a curve into a thin part is cut back to where the
// part is a voxel thick, while a thin curve between thicker parts, or a
// loop, stays (its points are not simple). It returns the number of
// points removed.
func (f *field) pruneThin(keep []bool, nb *nbhd) int {
	removable := func(i int32) bool {
		if !keep[i] || f.dist[i] >= f.g.h/2 {
			return false
		}
		id := int(f.vox[i])
		var mask uint32
		for k, o := range f.g.off {
			if j := f.at[id+o]; j >= 0 && keep[j] {
				mask |= 1 << k
			}
		}
		return nb.simple(mask)
	}
	var stack []int32
	for i := range f.vox {
		if removable(int32(i)) {
			stack = append(stack, int32(i))
		}
	}
	removed := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !removable(i) {
			continue
		}
		keep[i] = false
		removed++
		f.eachKept(keep, int(i), func(j int32) {
			if removable(j) {
				stack = append(stack, j)
			}
		})
	}
	return removed
}
