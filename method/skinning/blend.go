package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// blendSums holds the frame-independent sums of the LBS model that the
// transform update needs, per pair of bones j, k sharing a vertex:
// c_jk = Σ_i w_ij w_ik, b_jk = Σ_i w_ij w_ik u_i and A_jk = Σ_i w_ij w_ik u_i u_iᵀ.
// With them, bone j's fit against the residual its vertices leave needs,
// per frame, only V_j = Σ_i w_ij v_i u_iᵀ and v̄_j = Σ_i w_ij v_i.
type blendSums struct {
	start []int32 // bone j's pairs (k ≠ j) at pairs[start[j]:start[j+1]]
	pairs []blendPair
	self  []blendPair // j with itself
}

type blendPair struct {
	k int32
	c float64
	b linalg.Vec3
	a linalg.Mat3
}

func (p *Model) newBlendSums() *blendSums {
	// Pair (j ≤ k) sums per fixed chunk of vertices, chunks added in
	// order: the same result whatever the core count.
	const grain = 4096
	nb := p.B
	part := make([][]blendPair, (p.N+grain-1)/grain)
	par.For(p.N, grain, func(lo, hi int) {
		m := make([]blendPair, nb*nb)
		for i := lo; i < hi; i++ {
			u := p.Rest[i]
			uu := linalg.Outer(u, u)
			for x := 0; x < MaxK; x++ {
				j := p.WB[i*MaxK+x]
				if j < 0 {
					continue
				}
				for y := x; y < MaxK; y++ {
					k := p.WB[i*MaxK+y]
					if k < 0 {
						continue
					}
					w := p.WW[i*MaxK+x] * p.WW[i*MaxK+y]
					e := &m[int(min(j, k))*nb+int(max(j, k))]
					e.c += w
					e.b = e.b.Add(u.Scale(w))
					e.a = e.a.Add(uu.Scale(w))
				}
			}
		}
		part[lo/grain] = m
	})
	total := part[0]
	for _, m := range part[1:] {
		for x := range total {
			total[x].c += m[x].c
			total[x].b = total[x].b.Add(m[x].b)
			total[x].a = total[x].a.Add(m[x].a)
		}
	}
	bs := &blendSums{start: make([]int32, p.B+1), self: make([]blendPair, p.B)}
	for j := 0; j < p.B; j++ {
		bs.start[j] = int32(len(bs.pairs))
		for k := 0; k < p.B; k++ {
			lo, hi := min(j, k), max(j, k)
			if total[lo*p.B+hi].c == 0 {
				continue // no vertex blends the two
			}
			e := total[lo*p.B+hi]
			e.k = int32(k)
			if k == j {
				bs.self[j] = e
			} else {
				bs.pairs = append(bs.pairs, e)
			}
		}
	}
	bs.start[p.B] = int32(len(bs.pairs))
	return bs
}

// quadratic returns Σ_i |Σ_k w_ik M_k u_i|² − 2 Σ_i v_i·Σ_k w_ik M_k u_i
// for one frame's transforms m: the data term's sum of squares less
// Σ_i |v_i|².
func (bs *blendSums) quadratic(m []linalg.Affine, vu []linalg.Mat3, vs []linalg.Vec3) float64 {
	var q float64
	for j := range m {
		mj := m[j]
		// −2 Σ_i w_ij v_i·(R_j u_i + T_j) = −2 (tr(R_jᵀ V_j) + T_j·v̄_j).
		q -= 2 * (frobeniusDot(mj.M, vu[j]) + mj.T.Dot(vs[j]))
		q += pairTerm(mj, mj, &bs.self[j])
		for _, pr := range bs.pairs[bs.start[j]:bs.start[j+1]] {
			q += pairTerm(mj, m[pr.k], &pr)
		}
	}
	return q
}

// pairTerm is Σ_i w_ij w_ik (R_j u_i + T_j)·(R_k u_i + T_k) from the pair's sums.
func pairTerm(mj, mk linalg.Affine, pr *blendPair) float64 {
	return frobeniusDot(mj.M, mk.M.Mul(pr.a)) + mj.T.Dot(mk.M.MulVec(pr.b)) + mk.T.Dot(mj.M.MulVec(pr.b)) + pr.c*mj.T.Dot(mk.T)
}

// frobeniusDot returns tr(aᵀb).
func frobeniusDot(a, b linalg.Mat3) float64 {
	var s float64
	for r := 0; r < 3; r++ {
		s += a[r][0]*b[r][0] + a[r][1]*b[r][1] + a[r][2]*b[r][2]
	}
	return s
}
