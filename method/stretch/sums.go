package stretch

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// Every quantity a frame's fit needs — its error, a joint step's Σ z·aᵀ,
// the Levenberg–Marquardt normal equations — is a sum over vertices of
// products of the posed vertices v_i = Σ_k w_ik M_k r̃_i (r̃ = (r, 1)
// homogeneous, M_k a 3×4 skin matrix) with each other and with the
// targets y_i. Pulled out of the sums, the skin matrices leave
//
//	P_km = Σ_i w_ik w_im r̃_i r̃_iᵀ   (4×4, the skin's, every frame alike)
//	Y_k  = Σ_i w_ik y_i r̃_iᵀ        (3×4, one pass over the frame)
//
// so E = Σ_i |v_i − y_i|² = Σ_km tr(M_k P_km M_mᵀ) − 2 Σ_k tr(M_k Y_kᵀ)
// + Σ_i |y_i|², and a step costs the pairs of joints that share a vertex,
// not the vertices: replaying every vertex after every joint's step was
// nearly all of --stretch's time (the cow at 11 bones: 39 CPU-seconds).

// mat34 is a skin matrix [M | T] as a 3×4 array.
type mat34 = [3][4]float64

// sym4 is a 4×4 sum of r̃ r̃ᵀ terms.
type sym4 = [4][4]float64

// skinPair is P_km for one ordered pair of joints sharing a vertex
// (k = m included).
type skinPair struct {
	k, m int
	p    sym4
}

// skinSums holds the frame-independent sums of a skin: every ordered
// pair's P_km, the pairs by second joint (byM[m] indexes pairs), P_kk
// and U_k = Σ_i w_ik r̃_i.
type skinSums struct {
	pairs []skinPair
	byM   [][]int
	self  []sym4
	u     [][4]float64
	n     int
}

func newSkinSums(r *rig.Rig) *skinSums {
	nj := r.Skeleton.Len()
	dense := make([]sym4, nj*nj) // k ≤ m only
	used := make([]bool, nj*nj)
	ss := &skinSums{byM: make([][]int, nj), self: make([]sym4, nj), u: make([][4]float64, nj), n: len(r.Skin)}
	for i, in := range r.Skin {
		p := r.Mesh.Verts[i]
		rt := [4]float64{p[0], p[1], p[2], 1}
		for x := 0; x < rig.MaxInfluences; x++ {
			wx := in.Weight[x]
			if wx == 0 {
				continue
			}
			kx := int(in.Joint[x])
			for c := range rt {
				ss.u[kx][c] += wx * rt[c]
			}
			for y := x; y < rig.MaxInfluences; y++ {
				wy := in.Weight[y]
				if wy == 0 {
					continue
				}
				k, m := min(kx, int(in.Joint[y])), max(kx, int(in.Joint[y]))
				w := wx * wy
				if x != y && k == m {
					w *= 2 // one joint in two slots: both cross terms
				}
				d := &dense[k*nj+m]
				used[k*nj+m] = true
				for a := 0; a < 4; a++ {
					for b := 0; b < 4; b++ {
						d[a][b] += w * rt[a] * rt[b]
					}
				}
			}
		}
	}
	for k := 0; k < nj; k++ {
		for m := k; m < nj; m++ {
			if !used[k*nj+m] {
				continue
			}
			p := dense[k*nj+m]
			if k == m {
				ss.self[k] = p
				ss.add(skinPair{k, k, p})
				continue
			}
			ss.add(skinPair{k, m, p})
			ss.add(skinPair{m, k, p}) // P_mk = P_kmᵀ = P_km
		}
	}
	return ss
}

func (ss *skinSums) add(p skinPair) {
	ss.byM[p.m] = append(ss.byM[p.m], len(ss.pairs))
	ss.pairs = append(ss.pairs, p)
}

// targets holds one frame's Y_k, Σ_i |y_i|² and Σ_i y_i.
type targets struct {
	y    []mat34
	yy   float64
	ysum linalg.Vec3
}

// set fills t for the frame y of r's mesh.
func (t *targets) set(r *rig.Rig, y []linalg.Vec3) {
	nj := r.Skeleton.Len()
	if len(t.y) != nj {
		t.y = make([]mat34, nj)
	}
	clear(t.y)
	t.yy, t.ysum = 0, linalg.Vec3{}
	for i, in := range r.Skin {
		yi, p := y[i], r.Mesh.Verts[i]
		t.yy += yi.Dot(yi)
		t.ysum = t.ysum.Add(yi)
		for x := 0; x < rig.MaxInfluences; x++ {
			w := in.Weight[x]
			if w == 0 {
				continue
			}
			o := &t.y[in.Joint[x]]
			for a := 0; a < 3; a++ {
				wy := w * yi[a]
				o[a][0] += wy * p[0]
				o[a][1] += wy * p[1]
				o[a][2] += wy * p[2]
				o[a][3] += wy
			}
		}
	}
}

// asMat34 returns [M | T].
func asMat34(a linalg.Affine) mat34 {
	var m mat34
	for r := 0; r < 3; r++ {
		m[r] = [4]float64{a.M[r][0], a.M[r][1], a.M[r][2], a.T[r]}
	}
	return m
}

// mulP returns m·p (3×4 times 4×4).
func mulP(m *mat34, p *sym4) mat34 {
	var o mat34
	for r := 0; r < 3; r++ {
		for c := 0; c < 4; c++ {
			o[r][c] = m[r][0]*p[0][c] + m[r][1]*p[1][c] + m[r][2]*p[2][c] + m[r][3]*p[3][c]
		}
	}
	return o
}

// dot34 returns tr(a·bᵀ).
func dot34(a, b *mat34) float64 {
	var s float64
	for r := 0; r < 3; r++ {
		s += a[r][0]*b[r][0] + a[r][1]*b[r][1] + a[r][2]*b[r][2] + a[r][3]*b[r][3]
	}
	return s
}

// energy returns Σ_i |v_i − y_i|² for the skin matrices m.
func (ss *skinSums) energy(m []mat34, t *targets) float64 {
	e := t.yy
	for k := range m {
		e -= 2 * dot34(&m[k], &t.y[k])
	}
	for x := range ss.pairs {
		pr := &ss.pairs[x]
		mp := mulP(&m[pr.k], &pr.p)
		e += dot34(&mp, &m[pr.m])
	}
	return max(e, 0)
}

// residualMoment returns Q_j = Σ_i w_ij (v_i − y_i) r̃_iᵀ = Σ_k M_k P_kj − Y_j.
func (ss *skinSums) residualMoment(m []mat34, t *targets, j int) mat34 {
	var q mat34
	for _, x := range ss.byM[j] {
		pr := &ss.pairs[x]
		mp := mulP(&m[pr.k], &pr.p)
		for r := 0; r < 3; r++ {
			for c := 0; c < 4; c++ {
				q[r][c] += mp[r][c]
			}
		}
	}
	for r := 0; r < 3; r++ {
		for c := 0; c < 4; c++ {
			q[r][c] -= t.y[j][r][c]
		}
	}
	return q
}
