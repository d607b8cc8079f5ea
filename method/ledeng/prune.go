package ledeng

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// boneMass returns Σ_i w_ij² for every bone j (the quantity of Eq. 11).
func (p *problem) boneMass() []float64 {
	mass := make([]float64, p.b)
	for i := 0; i < p.n*maxK; i++ {
		if j := p.wb[i]; j >= 0 {
			mass[j] += p.ww[i] * p.ww[i]
		}
	}
	return mass
}

// redundant returns the bones Eq. 11 prunes: Σ_i w_ij² < 1e-2·max_k Σ_i w_ik².
func (p *problem) redundant() []bool {
	mass := p.boneMass()
	var top float64
	for _, m := range mass {
		top = math.Max(top, m)
	}
	drop := make([]bool, p.b)
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
	remap := make([]int32, p.b)
	nb := int32(0)
	for j := range remap {
		if drop[j] {
			remap[j] = -1
		} else {
			remap[j] = nb
			nb++
		}
	}
	removed := p.b - int(nb)
	if removed == 0 || nb == 0 {
		return 0
	}
	oldM, oldB := p.m, p.b
	p.m = make([]linalg.Affine, p.f*int(nb))
	for f := 0; f < p.f; f++ {
		for j := 0; j < oldB; j++ {
			if remap[j] >= 0 {
				p.m[f*int(nb)+int(remap[j])] = oldM[f*oldB+j]
			}
		}
	}
	p.b = int(nb)
	for i := 0; i < p.n; i++ {
		wb, ww := p.wb[i*maxK:(i+1)*maxK], p.ww[i*maxK:(i+1)*maxK]
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
		normalizeSlots(wb, ww)
	}
	return removed
}

// bestBone returns the bone whose transforms alone reconstruct vertex i best.
func (p *problem) bestBone(i int) int32 {
	best, be := int32(0), math.Inf(1)
	u := p.rest[i]
	for j := 0; j < p.b; j++ {
		var e float64
		for f := 0; f < p.f; f++ {
			e += p.m[f*p.b+j].Apply(u).Sub(p.frames[f*p.n+i]).Norm2()
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
func (p *problem) stiffJoints(joints []joint) []bool {
	drop := make([]bool, p.b)
	mass := p.boneMass()
	for _, jt := range joints {
		a, b := jt.a, jt.b
		if drop[a] || drop[b] {
			continue
		}
		stiff := true
		for f := 0; f < p.f && stiff; f++ {
			ra, rb := p.m[f*p.b+int(a)].M, p.m[f*p.b+int(b)].M
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
