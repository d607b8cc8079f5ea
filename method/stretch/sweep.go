package stretch

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// fitter holds what every frame's fit shares: the rig, its skeleton's
// tree and the skin's sums.
type fitter struct {
	r       *rig.Rig
	uniform bool
	tree    *tree
	sums    *skinSums
	pattern *blockPattern // polish's factor (blocks.go)
	// placed[j]: j and its ancestors move no vertex of their own — a
	// scene's placement joints above the body, whose motion the fit
	// keeps (as refit does); bodyRoots: the joints below them (or the
	// roots) that carry the body, which the root translation moves.
	placed    []bool
	bodyRoots []int
}

func newFitter(r *rig.Rig, uniform bool) *fitter {
	nj := r.Skeleton.Len()
	fr := &fitter{r: r, uniform: uniform, tree: newTree(&r.Skeleton)}
	fr.sums = newSkinSums(r)
	fr.pattern = newBlockPattern(fr.tree, fr.sums.pairs)
	fr.placed = make([]bool, nj)
	for j, p := range fr.tree.parent { // parents come first
		fr.placed[j] = fr.sums.self[j][3][3] == 0 && (p < 0 || fr.placed[p])
		if !fr.placed[j] && (p < 0 || fr.placed[p]) {
			fr.bodyRoots = append(fr.bodyRoots, j)
		}
	}
	return fr
}

type scratch struct {
	pose, m []linalg.Affine
	m34     []mat34 // m as 3×4 arrays
	t       targets // the frame's
	rot     []linalg.Quat
	scale   []linalg.Vec3
}

func (fr *fitter) scratch() *scratch {
	nj := fr.r.Skeleton.Len()
	return &scratch{pose: make([]linalg.Affine, nj), m: make([]linalg.Affine, nj), m34: make([]mat34, nj),
		rot: make([]linalg.Quat, nj), scale: make([]linalg.Vec3, nj)}
}

// sse poses st through FK (the model rig.Skeleton.Pose defines) into
// sc.pose and sc.m and returns its LBS squared error against the frame's
// targets in sc.t (see skinSums).
func (fr *fitter) sse(st frameState, sc *scratch) float64 {
	sk := &fr.r.Skeleton
	for k, jt := range sk.Joints {
		local := linalg.TRS(st.trans[k], st.rot[k], st.scale[k])
		if jt.Parent == rig.NoParent {
			sc.pose[k] = local
		} else {
			sc.pose[k] = sc.pose[jt.Parent].Mul(local)
		}
	}
	sk.SkinMatrices(sc.pose, sc.m)
	for k := range sc.m {
		sc.m34[k] = asMat34(sc.m[k])
	}
	return fr.sums.energy(sc.m34, &sc.t)
}

// sweep fits every joint of one frame once, in hierarchy order.
func (fr *fitter) sweep(st frameState, sc *scratch) {
	sk := &fr.r.Skeleton
	best := fr.sse(st, sc)
	for j, jt := range sk.Joints {
		pjj := &fr.sums.self[j]
		w2 := pjj[3][3] // Σ_i w_ij²
		if !(w2 > 0) {
			continue // j moves no vertex
		}
		root := jt.Parent == rig.NoParent
		zaT, aaT, zs, as := fr.leverSums(j, sc)
		if !root {
			// z_i less w_ij·head: Σ w_ij head (r_i − H)ᵀ w_ij.
			zaT = zaT.Sub(linalg.Outer(sc.pose[j].T, as))
		}
		var zbar, abar linalg.Vec3
		if root {
			// Centred with the weights: Σ(z−w z̄)(a−w ā)ᵀ = Σ z aᵀ − W2 z̄ āᵀ.
			zbar, abar = zs.Scale(1/w2), as.Scale(1/w2)
			zaT = zaT.Sub(linalg.Outer(zbar, abar).Scale(w2))
			aaT = aaT.Sub(linalg.Outer(abar, abar).Scale(w2))
		}
		parent := linalg.Identity3()
		if !root {
			parent = sc.pose[jt.Parent].M
		}
		pinv, ok := parent.Inverse()
		if !ok {
			continue
		}
		// Keep the old state to undo, and the descendants' global linear
		// parts to hold.
		copy(sc.rot, st.rot)
		copy(sc.scale, st.scale)
		oldTrans := st.trans[j]
		q, s := st.rot[j], st.scale[j]
		for it := 0; it < 3; it++ {
			q = horn(pinv.Mul(zaT), s)
			s = fr.scales(parent.Mul(q.Mat3()), zaT, aaT, s)
		}
		if q.Dot(q) == 0 {
			continue
		}
		st.rot[j], st.scale[j] = q, s
		if root {
			st.trans[j] = zbar.Sub(linalg.TRS(linalg.Vec3{}, q, s).M.MulVec(abar))
		}
		fr.hold(st, sc, j)
		if e := fr.sse(st, sc); e <= best {
			best = e
			continue
		}
		copy(st.rot, sc.rot)
		copy(st.scale, sc.scale)
		st.trans[j] = oldTrans
		best = fr.sse(st, sc)
	}
}

// leverSums returns, for joint j's levers a_i = w_ij (r_i − H_j) (H_j
// its rest head) and residuals z_i = y_i − v_i + w_ij M_j r̃_i (the
// vertex without j's share), Σ z·aᵀ, Σ a·aᵀ, Σ w_ij z_i and Σ w_ij a_i,
// from the skin's sums (see skinSums): with (r − H)ᵀ = r̃ᵀE, E = [I; −Hᵀ],
// Σ z·aᵀ = (M_j P_jj − Q_j)·E and Σ a·aᵀ = Eᵀ P_jj E.
func (fr *fitter) leverSums(j int, sc *scratch) (zaT, aaT linalg.Mat3, zs, as linalg.Vec3) {
	h := fr.r.Skeleton.Joints[j].Head
	p := &fr.sums.self[j]
	q := fr.sums.residualMoment(sc.m34, &sc.t, j)
	z := mulP(&sc.m34[j], p)
	for r := 0; r < 3; r++ {
		for c := 0; c < 4; c++ {
			z[r][c] -= q[r][c]
		}
	}
	// Σ w_ij² r̃ (column 3 of P) as (Σ w² r, Σ w²).
	pc := linalg.Vec3{p[0][3], p[1][3], p[2][3]}
	w2 := p[3][3]
	for r := 0; r < 3; r++ {
		zs[r] = z[r][3]
		as[r] = pc[r] - w2*h[r]
		for c := 0; c < 3; c++ {
			zaT[r][c] = z[r][c] - z[r][3]*h[c]
			aaT[r][c] = p[r][c] - pc[r]*h[c] - h[r]*pc[c] + w2*h[r]*h[c]
		}
	}
	return zaT, aaT, zs, as
}

// horn returns the rotation R maximising tr(Rᵀ·Σ (A⁻¹z)(S a)ᵀ), the best
// rotation of the scaled levers onto the residuals in the parent's frame
// (Horn 1987); pz = A⁻¹·Σ z aᵀ.
func horn(pz linalg.Mat3, s linalg.Vec3) linalg.Quat {
	for i := 0; i < 3; i++ {
		for k := 0; k < 3; k++ {
			pz[i][k] *= s[k]
		}
	}
	return linalg.BestRotation(pz).Normalize()
}

// scales solves min_s Σ‖B·diag(s)·a_i − z_i‖² (B = A·R): with
// u_k = B e_k, the normal equations N s = b have N_kl = (BᵀB)_kl·(Σ a aᵀ)_kl
// and b_k = (Bᵀ·Σ z aᵀ)_kk. Uniform: s = Σb / ΣN. Clamped to
// [minScale, 1/minScale]; an ill-posed system keeps prev.
func (fr *fitter) scales(b linalg.Mat3, zaT, aaT linalg.Mat3, prev linalg.Vec3) linalg.Vec3 {
	btb, bz := b.T().Mul(b), b.T().Mul(zaT)
	var nm linalg.Mat3
	var rhs linalg.Vec3
	for k := 0; k < 3; k++ {
		rhs[k] = bz[k][k]
		for l := 0; l < 3; l++ {
			nm[k][l] = btb[k][l] * aaT[k][l]
		}
	}
	var s linalg.Vec3
	if fr.uniform {
		den := 0.0
		for k := 0; k < 3; k++ {
			for l := 0; l < 3; l++ {
				den += nm[k][l]
			}
		}
		u := (rhs[0] + rhs[1] + rhs[2]) / den
		s = linalg.Vec3{u, u, u}
	} else {
		inv, ok := nm.Inverse()
		if !ok {
			return prev
		}
		s = inv.MulVec(rhs)
	}
	for k := range s {
		if math.IsNaN(s[k]) {
			return prev
		}
		s[k] = min(max(s[k], minScale), 1/minScale)
	}
	return s
}

// hold re-derives the local rotations of j's descendants so each keeps,
// as near as a rotation can, its global linear part from before j moved:
// R_k = nearest rotation to (A'_parent)⁻¹·A_k·S_k⁻¹.
func (fr *fitter) hold(st frameState, sc *scratch, j int) {
	below := fr.tree.below[j]
	if len(below) == 0 {
		return
	}
	sk := &fr.r.Skeleton
	// New global linear parts, parents first; sc.pose holds the old ones.
	lin := make(map[int]linalg.Mat3, len(below)+1)
	p := linalg.Identity3()
	if pp := sk.Joints[j].Parent; pp != rig.NoParent {
		p = sc.pose[pp].M
	}
	lin[j] = p.Mul(linalg.TRS(linalg.Vec3{}, st.rot[j], st.scale[j]).M)
	for _, k := range below {
		pl := lin[int(sk.Joints[k].Parent)]
		pinv, ok := pl.Inverse()
		if ok {
			want := pinv.Mul(sc.pose[k].M)
			s := st.scale[k]
			for i := 0; i < 3; i++ {
				for c := 0; c < 3; c++ {
					want[i][c] /= s[c]
				}
			}
			st.rot[k] = linalg.BestRotation(want).Normalize()
		}
		lin[k] = pl.Mul(linalg.TRS(linalg.Vec3{}, st.rot[k], st.scale[k]).M)
	}
}
