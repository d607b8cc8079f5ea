package ledeng

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// redundant returns the bones Eq. 11 prunes: Σ_i w_ij² < 1e-2·max_k Σ_i w_ik².
func (p *problem) redundant() []bool {
	mass := p.BoneMass()
	var top float64
	for _, m := range mass {
		top = math.Max(top, m)
	}
	drop := make([]bool, p.B)
	for j, m := range mass {
		drop[j] = m < 1e-2*top
	}
	return drop
}

// cheapest returns the bone whose removal costs the least (removalCost).
// removalBatch is how many bones one rigging iteration removes when the
// rig has excess bones more than asked for: a third of the excess, less
// one, at least one — several at once while far above the count (each
// removal restarts the iterations; one at a time, removing 25 of the
// cow's 36 initial bones cost 25 iterations, half the rig's time), one
// at a time for the last few, where each choice matters most (cow at 11:
// RMSE% 1.488 so, 1.677 removing a third every time).
func removalBatch(excess int) int {
	return max(1, (excess+2)/3-1)
}

// settleIterations is how many rigging iterations run once the count
// asked for is reached, before the exact skeletal fit takes over. More
// only stiffen the soft joints as λ grows — the loop's error rises with
// every iteration there — which the exact fit replaces anyway; measured
// on the four shared sequences, stopping after one instead of twenty
// gives the same or lower RMSE% (cat 0.304 → 0.283, lion 0.293 → 0.280,
// horse 0.200 → 0.190, with the batches above) in half the time.
const settleIterations = 1

// cheapestApart returns up to k bones, cheapest first, no two of which
// share a vertex, so that their removal costs, each measured with the
// others in place, still hold when they go together. It returns at least
// the cheapest bone.
func (p *problem) cheapestApart(cost []float64, k int) []int {
	order := byCost(cost)
	if k <= 1 {
		return order[:1]
	}
	// near[a*B+b]: bones a and b both move some vertex.
	near := make([]bool, p.B*p.B)
	for i := 0; i < p.N; i++ {
		wb := p.WB[i*skinning.MaxK : (i+1)*skinning.MaxK]
		for _, a := range wb {
			for _, b := range wb {
				if a >= 0 && b >= 0 {
					near[int(a)*p.B+int(b)] = true
				}
			}
		}
	}
	var out []int
	for _, j := range order {
		if len(out) == k || math.IsInf(cost[j], 1) {
			break
		}
		apart := true
		for _, o := range out {
			apart = apart && !near[j*p.B+o]
		}
		if apart {
			out = append(out, j)
		}
	}
	if len(out) == 0 {
		out = order[:1]
	}
	return out
}

// byCost returns the bones in order of cost, cheapest first (ties in
// index order).
func byCost(cost []float64) []int {
	order := make([]int, len(cost))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return cost[order[a]] < cost[order[b]] })
	return order
}

func cheapest(cost []float64) int {
	best := 0
	for j, c := range cost {
		if c < cost[best] {
			best = j
		}
	}
	return best
}

// removeBones deletes the marked bones: their transforms go, their weight
// moves to the vertices' other bones; a vertex left with none goes to the
// remaining bone that reconstructs it best, so every vertex (every shell)
// keeps a bone. It returns how many bones were removed.
func (p *problem) removeBones(drop []bool) int {
	remap := make([]int32, p.B)
	nb := int32(0)
	for j := range remap {
		if drop[j] {
			remap[j] = -1
		} else {
			remap[j] = nb
			nb++
		}
	}
	removed := p.B - int(nb)
	if removed == 0 || nb == 0 {
		return 0
	}
	oldM, oldB := p.M, p.B
	p.M = make([]linalg.Affine, p.F*int(nb))
	for f := 0; f < p.F; f++ {
		for j := 0; j < oldB; j++ {
			if remap[j] >= 0 {
				p.M[f*int(nb)+int(remap[j])] = oldM[f*oldB+j]
			}
		}
	}
	p.B = int(nb)
	for i := 0; i < p.N; i++ {
		wb, ww := p.WB[i*skinning.MaxK:(i+1)*skinning.MaxK], p.WW[i*skinning.MaxK:(i+1)*skinning.MaxK]
		empty := true
		for k := range wb {
			if wb[k] >= 0 {
				wb[k] = remap[wb[k]]
			}
			if wb[k] < 0 {
				ww[k] = 0
			} else {
				empty = false
			}
		}
		if empty {
			wb[0], ww[0] = p.bestBone(i), 1
			continue
		}
		skinning.NormalizeSlots(wb, ww)
	}
	return removed
}

// bestBone returns the bone whose transforms alone reconstruct vertex i best.
func (p *problem) bestBone(i int) int32 {
	best, be := int32(0), math.Inf(1)
	u := p.Rest[i]
	for j := 0; j < p.B; j++ {
		var e float64
		for f := 0; f < p.F; f++ {
			e += p.M[f*p.B+j].Apply(u).Sub(p.Pos(f, i)).Norm2()
		}
		if e < be {
			best, be = int32(j), e
		}
	}
	return best
}

// stiffAngle is the largest bend, in radians, of a joint that counts as
// never bending: its two bones move as one rigid part.
const stiffAngle = 2 * math.Pi / 180

// stiffJoints marks for removal, for every joint of S whose two bones keep
// (nearly) the same rotation in every frame, the lighter bone: the joint
// never bends, so it is no joint, and the heavier bone takes over its
// vertices. (Eq. 11 cannot see such a bone: its weights never degenerate,
// since it fits its vertices as well as its twin.) At most one bone of
// any joint-connected run is dropped per call.
func (p *problem) stiffJoints(joints []skinning.Joint) []bool {
	drop := make([]bool, p.B)
	mass := p.BoneMass()
	for _, jt := range joints {
		a, b := jt.A, jt.B
		if drop[a] || drop[b] {
			continue
		}
		stiff := true
		for f := 0; f < p.F && stiff; f++ {
			ra, rb := p.M[f*p.B+int(a)].M, p.M[f*p.B+int(b)].M
			rel := ra.T().Mul(rb)
			// cos θ = (tr − 1)/2.
			if (rel[0][0]+rel[1][1]+rel[2][2]-1)/2 < math.Cos(stiffAngle) {
				stiff = false
			}
		}
		if stiff {
			if mass[a] < mass[b] {
				drop[a] = true
			} else {
				drop[b] = true
			}
		}
	}
	return drop
}
