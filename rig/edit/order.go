package edit

import (
	"container/heap"
	"fmt"

	"github.com/meshrig/meshrig/rig"
)

// stableOrder lists the entries so that every parent precedes its
// children, taking at each step the lowest-indexed entry whose parent is
// listed: a proposed order that is already valid comes back unchanged, and
// an edit moves only the joints it must (unlike rig.Reorder's breadth-first
// order). order[newID] is an entry index; perm[entry] its new id.
func stableOrder(es []entry) (order []int, perm []rig.JointID, err error) {
	n := len(es)
	children := make([][]int, n)
	var ready readyHeap
	for k, e := range es {
		p := e.joint.Parent
		switch {
		case p == rig.NoParent:
			if len(ready) > 0 {
				return nil, nil, fmt.Errorf("joints %q and %q would both be roots", es[ready[0]].joint.Name, e.joint.Name)
			}
			ready = append(ready, k)
		case p < 0 || int(p) >= n:
			return nil, nil, fmt.Errorf("joint %q: parent %d out of range", e.joint.Name, p)
		default:
			children[p] = append(children[p], k)
		}
	}
	if len(ready) == 0 {
		return nil, nil, fmt.Errorf("the skeleton would have no root")
	}
	perm = make([]rig.JointID, n)
	order = make([]int, 0, n)
	for len(ready) > 0 {
		k := heap.Pop(&ready).(int)
		perm[k] = rig.JointID(len(order))
		order = append(order, k)
		for _, c := range children[k] {
			heap.Push(&ready, c)
		}
	}
	if len(order) != n {
		return nil, nil, fmt.Errorf("%d joints would not be reachable from the root (a cycle)", n-len(order))
	}
	return order, perm, nil
}

// readyHeap is a min-heap of entry indices.
type readyHeap []int

func (h readyHeap) Len() int           { return len(h) }
func (h readyHeap) Less(a, b int) bool { return h[a] < h[b] }
func (h readyHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *readyHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *readyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
