package stretch

import (
	"github.com/meshrig/meshrig/linalg"
)

// The normal equations of polish's Levenberg–Marquardt step, JᵀJ and
// Jᵀr, from per-joint moments rather than per-vertex Jacobian columns
// (the moments in turn from the skin's pair sums).
//
// Every column of joint j at vertex i is linear in
// U_j = Σ_k w_k G_j⁻¹ p_k, summed over the influences k of the vertex
// that j moves (j an ancestor of k, or k itself), p_k = M_k r_i: with
// x_j = (P_j, W_j) = (Σ_k w_k p_k, Σ_k w_k), U_j = [G⁻¹ | G⁻¹'s shift]·x_j,
// so column (j, q) is C_jq·x_j for a 3×4 matrix C_jq fixed within the
// step — rotation q: A_j [e_q]× S_j; scale q: L_j e_q e_qᵀ — times
// [G_j⁻¹]. Then
//
//	(JᵀJ)_(jq),(j'q') = Σ_r (C_jq M_jj' C_j'q'ᵀ)_rr,   M_jj' = Σ_i x_j x_j'ᵀ (4×4),
//	(Jᵀr)_(jq)        = Σ_r (C_jq R_jᵀ)_rr,           R_j   = Σ_i r_i x_jᵀ (3×4),
//
// and the root translation's columns are the unit vectors. The moments
// themselves come from the skin's pair sums (sums.go), at a cost set by
// the joints, not the vertices.

// moments holds one step's sums: m[j*nj+k] = M_jk (every j, k); r[j] = R_j;
// s[j] = Σ_i x_j; the skeleton's tree and per-step scratch.
type moments struct {
	nj   int
	tree *tree
	ginv []linalg.Affine // G_j⁻¹
	a    []linalg.Mat3   // A_j = L_j·S_j⁻¹
	m    [][4][4]float64
	r    [][3][4]float64
	s    [][4]float64
}

func newMoments(t *tree) *moments {
	nj := len(t.parent)
	return &moments{nj: nj, tree: t, ginv: make([]linalg.Affine, nj), a: make([]linalg.Mat3, nj),
		m: make([][4][4]float64, nj*nj), r: make([][3][4]float64, nj), s: make([][4]float64, nj)}
}

// normalEquations fills g with Jᵀr and returns JᵀJ (lower triangle of a
// row-major np×np array, np = 6·nj+3), for the current pose in sc (sse
// must have run on st) against the targets y; false when some joint's
// global transform is singular.
func (fr *fitter) normalEquations(st frameState, sc *scratch, mo *moments, g []float64) ([]float64, bool) {
	nj := mo.nj
	np := 6*nj + 3
	ginv, a, chain := mo.ginv, mo.a, mo.tree.chain
	for j := 0; j < nj; j++ {
		inv, ok := sc.pose[j].Inverse()
		if !ok {
			return nil, false
		}
		ginv[j] = inv
		a[j] = sc.pose[j].M
		s := st.scale[j]
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				a[j][r][c] /= s[c]
			}
		}
	}
	clear(mo.m)
	clear(mo.r)
	clear(mo.s)
	// The moments from the skin's sums (sums.go): with x_j = Σ_k w_ik M̃_k r̃_i
	// over the influences k that j moves (M̃_k the 4×4 [M_k; 0 0 0 1]),
	// M_jl = Σ_km M̃_k P_km M̃_mᵀ over k below-or-at j, m below-or-at l
	// (each pair's term at (k, m), then summed up the tree over m and
	// over k: nj² work, where adding each term to every (j, l) of the two
	// chains cost a chain length squared per pair);
	// R_j = Σ_k Q_k M̃_kᵀ; Σ_i x_j = Σ_k M̃_k U_k.
	ss := fr.sums
	m34 := sc.m34
	for x := range ss.pairs {
		pr := &ss.pairs[x]
		mp := mulP(&m34[pr.k], &pr.p)
		var t sym4
		for u := 0; u < 4; u++ {
			row := &pr.p[3]
			if u < 3 {
				row = &mp[u]
			}
			for v := 0; v < 3; v++ {
				mv := &m34[pr.m][v]
				t[u][v] = row[0]*mv[0] + row[1]*mv[1] + row[2]*mv[2] + row[3]*mv[3]
			}
			t[u][3] = row[3]
		}
		o := &mo.m[pr.k*nj+pr.m]
		for u := 0; u < 4; u++ {
			for v := 0; v < 4; v++ {
				o[u][v] += t[u][v]
			}
		}
	}
	for _, l := range mo.tree.up { // column l collects its subtree's columns
		if p := mo.tree.parent[l]; p >= 0 {
			for k := 0; k < nj; k++ {
				add4(&mo.m[k*nj+p], &mo.m[k*nj+l])
			}
		}
	}
	for _, j := range mo.tree.up { // then row j its subtree's rows
		if p := mo.tree.parent[j]; p >= 0 {
			for l := 0; l < nj; l++ {
				add4(&mo.m[p*nj+l], &mo.m[j*nj+l])
			}
		}
	}
	var resSum linalg.Vec3
	for k := 0; k < nj; k++ {
		if ss.self[k][3][3] == 0 {
			continue // k moves no vertex
		}
		q := ss.residualMoment(m34, &sc.t, k)
		var qm [3][4]float64 // Q_k M̃_kᵀ
		for r := 0; r < 3; r++ {
			for v := 0; v < 3; v++ {
				mv := &m34[k][v]
				qm[r][v] = q[r][0]*mv[0] + q[r][1]*mv[1] + q[r][2]*mv[2] + q[r][3]*mv[3]
			}
			qm[r][3] = q[r][3]
		}
		u := ss.u[k]
		var mu [4]float64 // M̃_k U_k
		for v := 0; v < 3; v++ {
			mv := &m34[k][v]
			mu[v] = mv[0]*u[0] + mv[1]*u[1] + mv[2]*u[2] + mv[3]*u[3]
		}
		mu[3] = u[3]
		for r := 0; r < 3; r++ {
			resSum[r] += mu[r]
		}
		for _, j := range chain[k] {
			for r := 0; r < 3; r++ {
				for b := 0; b < 4; b++ {
					mo.r[j][r][b] += qm[r][b]
				}
			}
			for b := 0; b < 4; b++ {
				mo.s[j][b] += mu[b]
			}
		}
	}
	resSum = resSum.Sub(sc.t.ysum)
	n := ss.n
	// C_jq for every joint and parameter.
	c := make([][6][3][4]float64, nj)
	for j := 0; j < nj; j++ {
		gi := ginv[j]
		sj := st.scale[j]
		l := sc.pose[j].M
		for q := 0; q < 6; q++ {
			var d linalg.Mat3 // column (j, q) = d·U_j
			for col := 0; col < 3; col++ {
				var v linalg.Vec3
				if q < 3 { // a_j·(e_q × S_j U)
					var e, su linalg.Vec3
					e[q], su[col] = 1, sj[col]
					v = a[j].MulVec(e.Cross(su))
				} else if col == q-3 { // L_j's column q·U_q
					v = l.Col(col)
				}
				d[0][col], d[1][col], d[2][col] = v[0], v[1], v[2]
			}
			for r := 0; r < 3; r++ {
				for b := 0; b < 4; b++ {
					var v float64
					for t := 0; t < 3; t++ {
						if b < 3 {
							v += d[r][t] * gi.M[t][b]
						} else {
							v += d[r][t] * gi.T[t]
						}
					}
					c[j][q][r][b] = v
				}
			}
		}
	}
	hd := make([]float64, np*np)
	for j := 0; j < nj; j++ {
		for q := 0; q < 6; q++ {
			cx := 6*j + q
			cj := &c[j][q]
			var gv float64
			for r := 0; r < 3; r++ {
				for b := 0; b < 4; b++ {
					gv += cj[r][b] * mo.r[j][r][b]
				}
			}
			g[cx] = gv
			for k := 0; k <= j; k++ {
				m := &mo.m[j*nj+k]
				if *m == (sym4{}) {
					continue // no vertex moves with both: a zero block
				}
				// cj·M: 3×4
				var cm [3][4]float64
				for r := 0; r < 3; r++ {
					for v := 0; v < 4; v++ {
						var t float64
						for u := 0; u < 4; u++ {
							t += cj[r][u] * m[u][v]
						}
						cm[r][v] = t
					}
				}
				qmax := 6
				if k == j {
					qmax = q + 1
				}
				for q2 := 0; q2 < qmax; q2++ {
					ck := &c[k][q2]
					var h float64
					for r := 0; r < 3; r++ {
						for v := 0; v < 4; v++ {
							h += cm[r][v] * ck[r][v]
						}
					}
					hd[cx*np+6*k+q2] = h
				}
			}
		}
	}
	// The root translation: unit columns at every vertex.
	for q := 0; q < 3; q++ {
		cx := 6*nj + q
		g[cx] = resSum[q]
		for j := 0; j < nj; j++ {
			for q2 := 0; q2 < 6; q2++ {
				var h float64
				for b := 0; b < 4; b++ {
					h += c[j][q2][q][b] * mo.s[j][b]
				}
				hd[cx*np+6*j+q2] = h
			}
		}
		hd[cx*np+cx] = float64(n)
	}
	return hd, true
}

// add4 adds b to a.
func add4(a, b *[4][4]float64) {
	for u := 0; u < 4; u++ {
		for v := 0; v < 4; v++ {
			a[u][v] += b[u][v]
		}
	}
}
