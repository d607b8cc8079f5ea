package forcefield

import (
	"container/heap"
	"context"
)

// thin is the modified thinning of §3.3: voxels are removed from the
// highest force to the lowest until none can go, and a voxel stays when
// it is a joint candidate or when removing it would change the local
// topology (it is not simple). It starts from the interior voxels marked
// in from (all when from is nil: a second pass continues from the first
// one's result) and returns the kept flag per interior voxel.
//
// One addition to the paper: a voxel that has become the end of a curve
// (one neighbour left) stays when it is a medial point of a tube (see
// tipKeeper). With candidates alone, a limb whose force has no minimum
// near its tip — any smooth tube — is eaten back to its last minimum;
// kept ends let it reach to about one radius from its tip, while a
// curve end that thinning exposes elsewhere (off the medial axis, or
// inside a plate such as an ear) still goes.
//
// The order is kept with a max-heap of border voxels: a voxel is queued
// when it touches the outside and re-queued when a neighbour goes, so a
// voxel that was not simple earlier is tested again once its
// surroundings change.
func (f *field) thin(ctx context.Context, from, cand, tip []bool, nb *nbhd) ([]bool, error) {
	obj := make([]bool, f.g.len())
	for i, id := range f.vox {
		obj[id] = from == nil || from[i]
	}
	h := &forceHeap{f: f}
	queued := make([]bool, len(f.vox))
	face := [6]int{f.g.off[12], f.g.off[13], f.g.off[10], f.g.off[15], f.g.off[4], f.g.off[21]}
	for i, id := range f.vox {
		if cand[i] || !obj[id] {
			continue
		}
		for _, o := range face {
			if !obj[int(id)+o] {
				h.items = append(h.items, int32(i))
				queued[i] = true
				break
			}
		}
	}
	heap.Init(h)
	for pops := 0; h.Len() > 0; pops++ {
		if pops%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		i := heap.Pop(h).(int32)
		queued[i] = false
		id := int(f.vox[i])
		var mask uint32
		for k, o := range f.g.off {
			if obj[id+o] {
				mask |= 1 << k
			}
		}
		if !nb.simple(mask) || (tip[i] && mask&(mask-1) == 0) {
			continue
		}
		obj[id] = false
		for _, o := range f.g.off {
			if j := f.at[id+o]; j >= 0 && obj[id+o] && !cand[j] && !queued[j] {
				queued[j] = true
				heap.Push(h, j)
			}
		}
	}
	keep := make([]bool, len(f.vox))
	for i, id := range f.vox {
		keep[i] = obj[id]
	}
	return keep, nil
}

// forceHeap pops the highest force first: the reverse of field.less.
type forceHeap struct {
	f     *field
	items []int32
}

func (h *forceHeap) Len() int           { return len(h.items) }
func (h *forceHeap) Less(a, b int) bool { return h.f.less(h.items[b], h.items[a]) }
func (h *forceHeap) Swap(a, b int)      { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *forceHeap) Push(x any)         { h.items = append(h.items, x.(int32)) }
func (h *forceHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
