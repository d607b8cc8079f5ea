package stretch

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/meshrig/meshrig/linalg"
)

// polish runs iters Levenberg–Marquardt steps (Nocedal & Wright 2006,
// §10.3) on one frame's whole parameter set at once: per joint a rotation
// increment ω (R ← R·exp[ω]×) and log-scale increment δ (S ← S·exp δ),
// and the root translation. The joint-by-joint sweeps cannot move a
// parent's scale and its child's pose together; these steps can.
//
// Jacobian, by the hierarchy: perturbing joint j's local T·R·S gives
// G_j' = G_j·(I + S⁻¹[ω]×S + diag δ) to first order, and every descendant
// k follows (G_k' = G_j'·G_j⁻¹G_k), so a point p = M_k·r moved by joint k
// changes by L_j·S⁻¹(ω × S·u) + L_j·diag(δ)·u with u = G_j⁻¹·p; the root
// translation moves every point one for one (weights sum to 1).
func (fr *fitter) polish(st frameState, sc *scratch, iters int) {
	sk := &fr.r.Skeleton
	nj := sk.Len()
	np := 6*nj + 3
	best := fr.sse(st, sc)
	lambda := 1e-3
	h := mat.NewSymDense(np, nil)
	g := make([]float64, np)
	mo := newMoments(sk)
	oldRot := make([]linalg.Quat, nj)
	oldScale := make([]linalg.Vec3, nj)
	for it := 0; it < iters; it++ {
		hd, ok := fr.normalEquations(st, sc, mo, g)
		if !ok {
			return
		}
		// One LM solve per accepted or rejected damping: the Jacobian is
		// reused while λ grows.
		for try := 0; try < 6; try++ {
			for x := 0; x < np; x++ {
				for y2 := 0; y2 <= x; y2++ {
					v := hd[max(x, y2)*np+min(x, y2)]
					if x == y2 {
						v += lambda*v + 1e-12
					}
					h.SetSym(x, y2, v)
				}
			}
			var ch mat.Cholesky
			if !ch.Factorize(h) {
				lambda *= 10
				continue
			}
			var d mat.VecDense
			if err := ch.SolveVecTo(&d, mat.NewVecDense(np, g)); err != nil {
				lambda *= 10
				continue
			}
			copy(oldRot, st.rot)
			copy(oldScale, st.scale)
			oldT := st.trans[0]
			for j := 0; j < nj; j++ {
				w := linalg.Vec3{-d.AtVec(6 * j), -d.AtVec(6*j + 1), -d.AtVec(6*j + 2)}
				if n := w.Norm(); n > 0 {
					st.rot[j] = st.rot[j].Mul(linalg.QuatFromAxisAngle(w.Scale(1/n), n)).Normalize()
				}
				for q := 0; q < 3; q++ {
					s := st.scale[j][q] * math.Exp(-d.AtVec(6*j+3+q))
					st.scale[j][q] = min(max(s, minScale), 1/minScale)
				}
			}
			st.trans[0] = st.trans[0].Sub(linalg.Vec3{d.AtVec(6 * nj), d.AtVec(6*nj + 1), d.AtVec(6*nj + 2)})
			if e := fr.sse(st, sc); e < best {
				best = e
				lambda = max(lambda/3, 1e-9)
				break
			}
			copy(st.rot, oldRot)
			copy(st.scale, oldScale)
			st.trans[0] = oldT
			lambda *= 10
			if try == 5 {
				fr.sse(st, sc)
				return
			}
		}
		fr.sse(st, sc)
	}
}
