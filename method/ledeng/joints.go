package ledeng

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/spantree"
)

// blending returns the B×B matrix Σ_i w_ia w_ib (the denominator of Eq. 2)
// and, per pair, the blend-weighted rest centroid Σ_i w_ia w_ib u_i.
func (p *problem) blending() (blend []float64, centroid []linalg.Vec3) {
	b := p.B
	blend = make([]float64, b*b)
	centroid = make([]linalg.Vec3, b*b)
	for i := 0; i < p.N; i++ {
		for k := 0; k < skinning.MaxK; k++ {
			ja := p.WB[i*skinning.MaxK+k]
			if ja < 0 {
				continue
			}
			for l := k + 1; l < skinning.MaxK; l++ {
				jb := p.WB[i*skinning.MaxK+l]
				if jb < 0 {
					continue
				}
				w := p.WW[i*skinning.MaxK+k] * p.WW[i*skinning.MaxK+l]
				lo, hi := min(ja, jb), max(ja, jb)
				blend[int(lo)*b+int(hi)] += w
				centroid[int(lo)*b+int(hi)] = centroid[int(lo)*b+int(hi)].Add(p.Rest[i].Scale(w))
			}
		}
	}
	return blend, centroid
}

// centerOfRotation returns the rest-pose point that bones a and b move
// most alike over all frames (Anguelov et al. 2004, as Le & Deng 2014 §5
// uses it): argmin_C Σ_f |(M_a^f − M_b^f)[C;1]|² + γ|C − prior|², with
// γ = 1e-2·F regularizing toward prior (the pair's centroid) where the
// relative motion leaves C undetermined (a pair that barely bends).
func (p *problem) centerOfRotation(a, b int32, prior linalg.Vec3) linalg.Vec3 {
	gamma := 1e-2 * float64(p.F)
	var A linalg.Mat3
	var rhs linalg.Vec3
	for f := 0; f < p.F; f++ {
		ma, mb := p.M[f*p.B+int(a)], p.M[f*p.B+int(b)]
		dr := ma.M.Add(mb.M.Scale(-1))
		dt := ma.T.Sub(mb.T)
		drt := dr.T()
		A = A.Add(drt.Mul(dr))
		rhs = rhs.Sub(drt.MulVec(dt))
	}
	for k := 0; k < 3; k++ {
		A[k][k] += gamma
	}
	rhs = rhs.Add(prior.Scale(gamma))
	inv, ok := A.Inverse()
	if !ok {
		return prior
	}
	return inv.MulVec(rhs)
}

// jointError is the numerator of Eq. 2: how far apart bones a and b carry
// the point c over all frames.
func (p *problem) jointError(a, b int32, c linalg.Vec3) float64 {
	var e float64
	for f := 0; f < p.F; f++ {
		e += p.M[f*p.B+int(a)].Apply(c).Sub(p.M[f*p.B+int(b)].Apply(c)).Norm2()
	}
	return e
}

// topology builds the skeleton tree S (§5): every blending bone pair gets
// its center of rotation and the graph weight of Eq. 2; S is the minimum
// spanning tree. Bones that never blend with the rest (separate shells)
// are then linked to the nearest bone of the tree, so the character stays
// one skeleton.
func (p *problem) topology() []skinning.Joint {
	blend, bc := p.blending()
	cent := p.BoneCentroids()
	var edges []spantree.Edge
	pos := map[[2]int32]linalg.Vec3{}
	for a := 0; a < p.B; a++ {
		for b := a + 1; b < p.B; b++ {
			w := blend[a*p.B+b]
			if w <= 0 {
				continue
			}
			prior := bc[a*p.B+b].Scale(1 / w)
			c := p.centerOfRotation(int32(a), int32(b), prior)
			pos[[2]int32{int32(a), int32(b)}] = c
			edges = append(edges, spantree.Edge{A: a, B: b, W: p.jointError(int32(a), int32(b), c) / w})
		}
	}
	// Bones that never blend with the rest (separate shells) join the
	// tree through their nearest bone.
	tree := spantree.Connect(p.B, spantree.Minimum(p.B, edges), func(a, b int) float64 { return cent[a].Dist(cent[b]) })
	joints := make([]skinning.Joint, len(tree))
	for k, e := range tree {
		a, b := int32(min(e.A, e.B)), int32(max(e.A, e.B))
		c, ok := pos[[2]int32{a, b}]
		if !ok {
			c = p.centerOfRotation(a, b, cent[a].Add(cent[b]).Scale(0.5))
		}
		joints[k] = skinning.Joint{A: a, B: b, Pos: c}
	}
	return joints
}

// updateJoints moves every joint of S to the current center of rotation
// of its two bones (§6, joint positions update).
func (p *problem) updateJoints(joints []skinning.Joint) {
	blend, bc := p.blending()
	cent := p.BoneCentroids()
	for k := range joints {
		a, b := joints[k].A, joints[k].B
		prior := cent[a].Add(cent[b]).Scale(0.5)
		if w := blend[int(a)*p.B+int(b)]; w > 0 {
			prior = bc[int(a)*p.B+int(b)].Scale(1 / w)
		}
		joints[k].Pos = p.centerOfRotation(a, b, prior)
	}
}
