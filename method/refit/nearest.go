package refit

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// nearestBones returns, per rest vertex, the joints of its two nearest
// bones (the second −1 when there is one joint). A bone runs from a
// joint's head to a child's and belongs to the joint whose rotation moves
// it, the parent — as in method/skinweights —, except that a vertex past
// the far end of a bone to a leaf joint belongs to the leaf (a hand past
// the wrist). Bones owned by a joint marked in skip (nil: none) are left
// out; a vertex with no bone left (one joint) goes to fallback.
func nearestBones(rest []linalg.Vec3, sk *rig.Skeleton, heads []linalg.Vec3, skip []bool, fallback int32) [][2]int32 {
	out := make([][2]int32, len(rest))
	ch := sk.Children()
	par.For(len(rest), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			best := [2]int32{-1, -1}
			bd := [2]float64{math.Inf(1), math.Inf(1)}
			put := func(j int32, d float64) {
				switch {
				case j == best[0]:
					bd[0] = math.Min(bd[0], d)
				case j == best[1]:
					bd[1] = math.Min(bd[1], d)
					if bd[1] < bd[0] {
						best[0], best[1], bd[0], bd[1] = best[1], best[0], bd[1], bd[0]
					}
				case d < bd[0]:
					best[1], bd[1] = best[0], bd[0]
					best[0], bd[0] = j, d
				case d < bd[1]:
					best[1], bd[1] = j, d
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
