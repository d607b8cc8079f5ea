package refit

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// nearK is how many nearest bones' joints a vertex is offered.
const nearK = 4

// nearestBones returns, per rest vertex, the joints of its nearK nearest
// bones, nearest first (−1 where there are fewer). A bone runs from a
// joint's head to a child's and belongs to the joint whose rotation moves
// it, the parent — as in method/skinweights —, except that a vertex past
// the far end of a bone to a leaf joint belongs to the leaf (a hand past
// the wrist). Bones owned by a joint marked in skip (nil: none) are left
// out; a vertex with no bone left (one joint) goes to fallback.
func nearestBones(rest []linalg.Vec3, sk *rig.Skeleton, heads []linalg.Vec3, skip []bool, fallback int32) [][nearK]int32 {
	out := make([][nearK]int32, len(rest))
	ch := sk.Children()
	par.For(len(rest), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var best [nearK]int32
			var bd [nearK]float64
			for k := range best {
				best[k], bd[k] = -1, math.Inf(1)
			}
			// put keeps each joint once, at its nearest bone's distance,
			// the list sorted by distance.
			put := func(j int32, d float64) {
				q := 0
				for q < nearK && best[q] != j {
					q++
				}
				if q == nearK {
					q = nearK - 1 // a new joint takes the last place, if nearer
				}
				if d >= bd[q] {
					return
				}
				best[q], bd[q] = j, d
				for ; q > 0 && bd[q] < bd[q-1]; q-- {
					best[q], best[q-1] = best[q-1], best[q]
					bd[q], bd[q-1] = bd[q-1], bd[q]
				}
			}
			v := rest[i]
			for j, jt := range sk.Joints {
				if jt.Parent == rig.NoParent {
					continue
				}
				a, b := heads[jt.Parent], heads[j]
				ab := b.Sub(a)
				t := 0.0
				if l2 := ab.Norm2(); l2 > 0 {
					t = math.Max(0, math.Min(1, v.Sub(a).Dot(ab)/l2))
				}
				d := v.Dist(a.Add(ab.Scale(t)))
				owner := int32(jt.Parent)
				if t == 1 && len(ch[j]) == 0 {
					owner = int32(j)
				}
				if skip == nil || !skip[owner] {
					put(owner, d)
				}
			}
			if best[0] < 0 { // one joint, or every bone skipped
				best[0] = fallback
			}
			out[i] = best
		}
	})
	return out
}
