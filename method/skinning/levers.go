package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// With every joint's rest position fixed, a skeletal rig is linear in its
// global bone rotations: vertex i at a frame is
//
//	v̂_i = p + Σ_a R_a z_ia,   z_ia = w_ia (u_i − h_a) + Σ_{k below a} w_ik (h_c(k) − h_a),
//
// p being the root's head, c(k) the child of a on the path down to k (the
// lever of bone a: how the vertex moves when a's global rotation turns
// with every other global rotation held still). The fit's normal
// equations then need only frame-independent 3×3 sums over the levers —
// C_ab = Σ_i z_ia z_ibᵀ and S_a = Σ_i z_ia — plus, per frame, one pass
// over the levers for V_a = Σ_i v_i z_iaᵀ. Block coordinate descent over
// the bones then costs O(B²) per sweep, whatever the vertex count, so it
// can sweep until it settles.

// leverSums holds the frame-independent part of the rotation fit.
type leverSums struct {
	// Levers in CSR form: bone a's vertices and arms are idx/arm[start[a]:start[a+1]].
	start []int32
	idx   []int32
	arm   []linalg.Vec3
	// Pairs with a shared vertex: bone a's partners b ≠ a and C_ba at
	// pairs[pstart[a]:pstart[a+1]].
	pstart []int32
	pairs  []leverPair
	self   []linalg.Mat3 // C_aa
	sum    []linalg.Vec3 // S_a
}

type leverPair struct {
	b int32
	c linalg.Mat3 // C_ba = Σ_i z_ib z_iaᵀ, for bone a's row
}

// newLeverSums builds the levers of h and their sums.
func (p *Model) newLeverSums(h Hierarchy) *leverSums {
	// Vertex-major levers first: each vertex's arms on its bones and their
	// ancestors, in the order first touched.
	vstart := make([]int32, p.N+1)
	var vbone []int32
	var varm []linalg.Vec3
	acc := make([]linalg.Vec3, p.B)
	seen := make([]bool, p.B)
	var touched []int32
	for i := 0; i < p.N; i++ {
		touched = touched[:0]
		for k := 0; k < MaxK; k++ {
			j := p.WB[i*MaxK+k]
			if j < 0 {
				continue
			}
			w := p.WW[i*MaxK+k]
			for c, a := j, j; a >= 0; c, a = a, h.Parent[a] {
				if !seen[a] {
					seen[a] = true
					touched = append(touched, a)
				}
				if a == j {
					acc[a] = acc[a].Add(p.Rest[i].Sub(h.Head[a]).Scale(w))
				} else {
					acc[a] = acc[a].Add(h.Head[c].Sub(h.Head[a]).Scale(w))
				}
			}
		}
		for _, a := range touched {
			vbone = append(vbone, a)
			varm = append(varm, acc[a])
			acc[a], seen[a] = linalg.Vec3{}, false
		}
		vstart[i+1] = int32(len(vbone))
	}
	// Bone-major copy for the per-frame pass.
	ls := &leverSums{start: make([]int32, p.B+1), self: make([]linalg.Mat3, p.B), sum: make([]linalg.Vec3, p.B)}
	for _, a := range vbone {
		ls.start[a+1]++
	}
	for a := 0; a < p.B; a++ {
		ls.start[a+1] += ls.start[a]
	}
	ls.idx = make([]int32, len(vbone))
	ls.arm = make([]linalg.Vec3, len(vbone))
	fill := append([]int32(nil), ls.start[:p.B]...)
	for i := 0; i < p.N; i++ {
		for r := vstart[i]; r < vstart[i+1]; r++ {
			a := vbone[r]
			ls.idx[fill[a]], ls.arm[fill[a]] = int32(i), varm[r]
			fill[a]++
			ls.sum[a] = ls.sum[a].Add(varm[r])
		}
	}
	// C_ab (a ≤ b) summed per fixed chunk of vertices, chunks added in
	// order: the same result whatever the core count.
	const grain = 2048
	chunks := (p.N + grain - 1) / grain
	part := make([][]linalg.Mat3, chunks)
	par.For(p.N, grain, func(lo, hi int) {
		c := make([]linalg.Mat3, p.B*p.B)
		for i := lo; i < hi; i++ {
			for r := vstart[i]; r < vstart[i+1]; r++ {
				a, za := vbone[r], varm[r]
				for q := r; q < vstart[i+1]; q++ {
					b, zb := vbone[q], varm[q]
					if a <= b {
						addOuter(&c[int(a)*p.B+int(b)], za, zb)
					} else {
						addOuter(&c[int(b)*p.B+int(a)], zb, za)
					}
				}
			}
		}
		part[lo/grain] = c
	})
	c := part[0]
	for _, pc := range part[1:] {
		for x := range c {
			c[x] = c[x].Add(pc[x])
		}
	}
	ls.pstart = make([]int32, p.B+1)
	for a := 0; a < p.B; a++ {
		ls.pstart[a] = int32(len(ls.pairs))
		for b := 0; b < p.B; b++ {
			switch {
			case b == a:
				ls.self[a] = c[a*p.B+a]
			case b > a && c[a*p.B+b] != (linalg.Mat3{}):
				ls.pairs = append(ls.pairs, leverPair{int32(b), c[a*p.B+b].T()})
			case b < a && c[b*p.B+a] != (linalg.Mat3{}):
				ls.pairs = append(ls.pairs, leverPair{int32(b), c[b*p.B+a]})
			}
		}
	}
	ls.pstart[p.B] = int32(len(ls.pairs))
	return ls
}

// addOuter adds x yᵀ to m.
func addOuter(m *linalg.Mat3, x, y linalg.Vec3) {
	for r := 0; r < 3; r++ {
		m[r][0] += x[r] * y[0]
		m[r][1] += x[r] * y[1]
		m[r][2] += x[r] * y[2]
	}
}

func frobenius2(m linalg.Mat3) float64 {
	var s float64
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			s += m[r][c] * m[r][c]
		}
	}
	return s
}

// quadratic returns, for one frame's global rotations rot, root position
// p and lever products v (V_a), Σ_i |v_i − p − Σ_a R_a z_ia|² − Σ_i |v_i|²
// given vsum = Σ_i v_i and n vertices: −2 Σ_a tr(R_aᵀV_a) − 2 p·Σv + n|p|²
// + 2 p·Σ_a R_a S_a + Σ_ab tr(R_aᵀ R_b C_ba).
func (ls *leverSums) quadratic(rot, v []linalg.Mat3, p, vsum linalg.Vec3, n float64) float64 {
	q := n*p.Norm2() - 2*p.Dot(vsum)
	for a := range rot {
		ra := rot[a]
		ry := ra.MulVec(ls.sum[a])
		q += 2*p.Dot(ry) - 2*frobeniusDot(ra, v[a]) + frobeniusDot(ra, ra.Mul(ls.self[a]))
		for _, pr := range ls.pairs[ls.pstart[a]:ls.pstart[a+1]] {
			q += frobeniusDot(ra, rot[pr.b].Mul(pr.c))
		}
	}
	return q
}
