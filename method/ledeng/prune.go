package ledeng

import (
	"math"

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
