package forcefield

import "github.com/meshrig/meshrig/internal/par"

// less orders interior voxels by force, ties by index, so every
// comparison has one answer and plateaus have one minimum.
func (f *field) less(i, j int32) bool {
	return f.force[i] < f.force[j] || (f.force[i] == f.force[j] && i < j)
}

// minima marks the local minima of |F| among the 26 interior neighbours:
// the joint candidates of §3.2.
func (f *field) minima() []bool {
	out := make([]bool, len(f.vox))
	par.For(len(f.vox), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			id := int(f.vox[i])
			out[i] = true
			for _, o := range f.g.off {
				if j := f.at[id+o]; j >= 0 && f.less(j, int32(i)) {
					out[i] = false
					break
				}
			}
		}
	})
	return out
}
