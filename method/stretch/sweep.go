package stretch

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

type lever struct {
	i int32
	w float64
}

// fitter holds what every frame's fit shares: the rig and, per joint, the
// vertices it moves with their weights.
type fitter struct {
	r       *rig.Rig
	uniform bool
	levers  [][]lever
	below   [][]int // below[j]: j's descendants, in index order
	// moved[j]: the vertices some joint of j's subtree moves, in index
	// order — all that a step of joint j (with hold) can change; nil for
	// a root, which moves every vertex.
	moved [][]int32
}

func newFitter(r *rig.Rig, uniform bool) *fitter {
	nj := r.Skeleton.Len()
	fr := &fitter{r: r, uniform: uniform, levers: make([][]lever, nj), below: make([][]int, nj)}
	for i, in := range r.Skin {
		for k := 0; k < rig.MaxInfluences; k++ {
			if w := in.Weight[k]; w > 0 {
				j := in.Joint[k]
				fr.levers[j] = append(fr.levers[j], lever{int32(i), w})
			}
		}
	}
	for k, jt := range r.Skeleton.Joints {
		for p := jt.Parent; p != rig.NoParent; p = r.Skeleton.Joints[p].Parent {
			fr.below[p] = append(fr.below[p], k)
		}
	}
	fr.moved = make([][]int32, nj)
	in := make([]bool, nj)
	for j, jt := range r.Skeleton.Joints {
		if jt.Parent == rig.NoParent {
			continue
		}
		clear(in)
		in[j] = true
		for _, k := range fr.below[j] {
			in[k] = true
		}
		for i, inf := range r.Skin {
			for k := 0; k < rig.MaxInfluences; k++ {
				if inf.Weight[k] > 0 && in[inf.Joint[k]] {
					fr.moved[j] = append(fr.moved[j], int32(i))
					break
				}
			}
		}
	}
	return fr
}

type scratch struct {
	pose, m []linalg.Affine
	v       []linalg.Vec3
	e       []float64 // each vertex's squared error, as sse left it
	rot     []linalg.Quat
	scale   []linalg.Vec3
}

func (fr *fitter) scratch() *scratch {
	nj, n := fr.r.Skeleton.Len(), len(fr.r.Mesh.Verts)
	return &scratch{pose: make([]linalg.Affine, nj), m: make([]linalg.Affine, nj),
		v: make([]linalg.Vec3, n), e: make([]float64, n),
		rot: make([]linalg.Quat, nj), scale: make([]linalg.Vec3, nj)}
}

// sse replays st through FK and LBS (the model rig.Skeleton.Pose and
// rig.Deform define) into sc.v and returns its squared error against y.
func (fr *fitter) sse(st frameState, y []linalg.Vec3, sc *scratch) float64 {
	return fr.sseMoved(st, y, sc, -1)
}

// sseMoved is sse after a step of joint j alone (-1: any change): only
// the vertices j's subtree moves are replayed, the others' positions and
// errors are sc's from the last call. The sum runs over every vertex in
// order, so it is the same number sse gives.
func (fr *fitter) sseMoved(st frameState, y []linalg.Vec3, sc *scratch, j int) float64 {
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
	replay := func(i int) {
		in := fr.r.Skin[i]
		rp := fr.r.Mesh.Verts[i]
		var v linalg.Vec3
		for k := 0; k < rig.MaxInfluences; k++ {
			if w := in.Weight[k]; w != 0 {
				v = v.Add(sc.m[in.Joint[k]].Apply(rp).Scale(w))
			}
		}
		sc.v[i] = v
		d := v.Sub(y[i])
		sc.e[i] = d.Dot(d)
	}
	if j < 0 || fr.moved[j] == nil {
		for i := range fr.r.Skin {
			replay(i)
		}
	} else {
		for _, i := range fr.moved[j] {
			replay(int(i))
		}
	}
	e := 0.0
	for _, x := range sc.e {
		e += x
	}
	return e
}

// sweep fits every joint of one frame once, in hierarchy order.
func (fr *fitter) sweep(st frameState, y []linalg.Vec3, sc *scratch) {
	sk := &fr.r.Skeleton
	best := fr.sse(st, y, sc)
	for j, jt := range sk.Joints {
		lv := fr.levers[j]
		if len(lv) == 0 {
			continue
		}
		root := jt.Parent == rig.NoParent
		mj, head := sc.m[j], sc.pose[j].T
		var w2 float64
		var zs, as linalg.Vec3
		var zaT, aaT linalg.Mat3 // Σ z·aᵀ, Σ a·aᵀ
		for _, l := range lv {
			rp := fr.r.Mesh.Verts[l.i]
			z := y[l.i].Sub(sc.v[l.i].Sub(mj.Apply(rp).Scale(l.w)))
			a := rp.Sub(jt.Head).Scale(l.w)
			if root {
				w2 += l.w * l.w
				zs, as = zs.Add(z.Scale(l.w)), as.Add(a.Scale(l.w))
			} else {
				z = z.Sub(head.Scale(l.w))
			}
			zaT, aaT = zaT.Add(linalg.Outer(z, a)), aaT.Add(linalg.Outer(a, a))
		}
		var zbar, abar linalg.Vec3
		if root {
			if !(w2 > 0) {
				continue
			}
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
		if e := fr.sseMoved(st, y, sc, j); e <= best {
			best = e
			continue
		}
		copy(st.rot, sc.rot)
		copy(st.scale, sc.scale)
		st.trans[j] = oldTrans
		best = fr.sseMoved(st, y, sc, j)
	}
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
	below := fr.below[j]
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
