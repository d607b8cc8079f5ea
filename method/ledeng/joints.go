package ledeng

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/spantree"
)

// blending returns the B×B matrix Σ_i w_ia w_ib (the denominator of Eq. 2)
// and, per pair, the blend-weighted rest centroid Σ_i w_ia w_ib u_i.
func (p *problem) blending() (blend []float64, centroid []linalg.Vec3) {
	b := p.b
	blend = make([]float64, b*b)
	centroid = make([]linalg.Vec3, b*b)
	for i := 0; i < p.n; i++ {
		for k := 0; k < maxK; k++ {
			ja := p.wb[i*maxK+k]
			if ja < 0 {
				continue
			}
			for l := k + 1; l < maxK; l++ {
				jb := p.wb[i*maxK+l]
				if jb < 0 {
					continue
				}
				w := p.ww[i*maxK+k] * p.ww[i*maxK+l]
				lo, hi := min(ja, jb), max(ja, jb)
				blend[int(lo)*b+int(hi)] += w
				centroid[int(lo)*b+int(hi)] = centroid[int(lo)*b+int(hi)].Add(p.rest[i].Scale(w))
			}
		}
	}
	return blend, centroid
}

// boneCentroids returns each bone's weighted rest centroid.
func (p *problem) boneCentroids() []linalg.Vec3 {
	c := make([]linalg.Vec3, p.b)
	mass := make([]float64, p.b)
	for i := 0; i < p.n; i++ {
		for k := 0; k < maxK; k++ {
			if j := p.wb[i*maxK+k]; j >= 0 {
				w := p.ww[i*maxK+k]
				c[j] = c[j].Add(p.rest[i].Scale(w))
				mass[j] += w
			}
		}
	}
	for j := range c {
		if mass[j] > 0 {
			c[j] = c[j].Scale(1 / mass[j])
		}
	}
	return c
}

// centerOfRotation returns the rest-pose point that bones a and b move
// most alike over all frames (Anguelov et al. 2004, as Le & Deng 2014 §5
// uses it): argmin_C Σ_f |(M_a^f − M_b^f)[C;1]|² + γ|C − prior|², with
// γ = 1e-2·F regularizing toward prior (the pair's centroid) where the
// relative motion leaves C undetermined (a pair that barely bends).
func (p *problem) centerOfRotation(a, b int32, prior linalg.Vec3) linalg.Vec3 {
	gamma := 1e-2 * float64(p.f)
	var A linalg.Mat3
	var rhs linalg.Vec3
	for f := 0; f < p.f; f++ {
		ma, mb := p.m[f*p.b+int(a)], p.m[f*p.b+int(b)]
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
	for f := 0; f < p.f; f++ {
		e += p.m[f*p.b+int(a)].Apply(c).Sub(p.m[f*p.b+int(b)].Apply(c)).Norm2()
	}
	return e
}

// topology builds the skeleton tree S (§5): every blending bone pair gets
// its center of rotation and the graph weight of Eq. 2; S is the minimum
// spanning tree. Bones that never blend with the rest (separate shells)
// are then linked to the nearest bone of the tree, so the character stays
// one skeleton.
func (p *problem) topology() []joint {
	blend, bc := p.blending()
	cent := p.boneCentroids()
	var edges []spantree.Edge
	pos := map[[2]int32]linalg.Vec3{}
	for a := 0; a < p.b; a++ {
		for b := a + 1; b < p.b; b++ {
			w := blend[a*p.b+b]
			if w <= 0 {
				continue
			}
			prior := bc[a*p.b+b].Scale(1 / w)
			c := p.centerOfRotation(int32(a), int32(b), prior)
			pos[[2]int32{int32(a), int32(b)}] = c
			edges = append(edges, spantree.Edge{A: a, B: b, W: p.jointError(int32(a), int32(b), c) / w})
		}
	}
	tree := spantree.Minimum(p.b, edges)
	if len(tree) < p.b-1 {
		// Keep the tree (weight -1 sorts first) and link its components by
		// their closest bone centroids.
		links := make([]spantree.Edge, len(tree))
		for k, e := range tree {
			links[k] = spantree.Edge{A: e.A, B: e.B, W: -1}
		}
		for a := 0; a < p.b; a++ {
			for b := a + 1; b < p.b; b++ {
				links = append(links, spantree.Edge{A: a, B: b, W: cent[a].Dist(cent[b])})
			}
		}
		tree = spantree.Minimum(p.b, links)
	}
	joints := make([]joint, len(tree))
	for k, e := range tree {
		a, b := int32(min(e.A, e.B)), int32(max(e.A, e.B))
		c, ok := pos[[2]int32{a, b}]
		if !ok {
			c = p.centerOfRotation(a, b, cent[a].Add(cent[b]).Scale(0.5))
		}
		joints[k] = joint{a: a, b: b, pos: c}
	}
	return joints
}

// updateJoints moves every joint of S to the current center of rotation
// of its two bones (§6, joint positions update).
func (p *problem) updateJoints(joints []joint) {
	blend, bc := p.blending()
	cent := p.boneCentroids()
	for k := range joints {
		a, b := joints[k].a, joints[k].b
		prior := cent[a].Add(cent[b]).Scale(0.5)
		if w := blend[int(a)*p.b+int(b)]; w > 0 {
			prior = bc[int(a)*p.b+int(b)].Scale(1 / w)
		}
		joints[k].pos = p.centerOfRotation(a, b, prior)
	}
}

// rootJoint returns the index of the joint closest to the rest pose's
// centroid (§5), or -1 when S has no joint.
func rootJoint(joints []joint, centroid linalg.Vec3) int {
	best, bd := -1, math.Inf(1)
	for k, jt := range joints {
		if d := jt.pos.Dist(centroid); d < bd {
			best, bd = k, d
		}
	}
	return best
}
