package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// rotationTol ends a frame's sweeps once no global rotation moved more
// than this (Frobenius norm of the change): far below what the exported
// file resolves.
const rotationTol = 1e-9

// FitRotations refines the bone rotations with the skeleton enforced
// exactly: per frame, block coordinate descent over each bone's global
// rotation (root to leaves; each step is a rotation-only Procrustes
// problem about the bone's head, exact for the whole subtree it carries),
// then the root translation, for at most sweeps sweeps (fewer when the
// rotations settle). The transforms p.M must already be skeletal (see
// Constrain); they stay so. It returns the data term (Eq. 3b, a sum of
// squares over vertices and frames) of the result, from the same sums.
func (p *Model) FitRotations(h Hierarchy, sweeps int) float64 {
	return p.fitRotations(h, sweeps, 0)
}

// newtonSweeps and newtonSteps are FitRotationsNewton's block sweeps and
// Levenberg–Marquardt steps per frame; newtonGain ends a frame's steps
// once one gains less than this fraction of its error. On the shared
// sequences at Dem Bones' counts, 2 sweeps and 3 steps cost what 30 sweeps
// did and reach the error of 300 (cat-poses at 28 bones RMSE% 0.2990 →
// 0.2914, lion-poses 0.3113 → 0.3027, horse-gallop 0.2241 → 0.2135, the
// cow at 11 1.4277 → 1.4130): the sweeps alone were still moving the
// cow's worst frame by 0.5% of a radian each.
const (
	newtonSweeps = 2
	newtonSteps  = 3
	newtonGain   = 1e-7
)

// NewtonBones is the most bones FitRotationsNewton takes Newton steps
// for: its dense system costs O(B³) per step and frame. At the automatic
// cow's 48 bones it took RMSE% 0.542 → 0.521 for 5% more time (6.3 →
// 6.6 CPU-seconds); at 64 a step costs about what 30 sweeps do.
const NewtonBones = 64

// FitRotationsNewton is FitRotations closer to convergence: per frame,
// newtonSweeps block sweeps, then up to newtonSteps Levenberg–Marquardt
// steps on every bone's rotation and the root position at once
// (newtonFrame); sweeps is not used then. Above NewtonBones bones it is
// FitRotations(h, sweeps).
func (p *Model) FitRotationsNewton(h Hierarchy, sweeps int) float64 {
	if p.B > NewtonBones {
		return p.FitRotations(h, sweeps)
	}
	return p.fitRotations(h, newtonSweeps, newtonSteps)
}

// fitRotations is FitRotations with up to steps Newton steps per frame
// after the sweeps.
func (p *Model) fitRotations(h Hierarchy, sweeps, steps int) float64 {
	ls := p.newLeverSums(h)
	root := h.Order[0]
	invN := 1 / float64(p.N)
	sse := make([]float64, p.F)
	scratch := newScratch[[]linalg.Vec3]()
	systems := newScratch[*newtonScratch]()
	par.For(p.F, 1, func(lo, hi int) {
		buf := scratch.get()
		defer func() { scratch.put(buf) }()
		rot := make([]linalg.Mat3, p.B)
		v := make([]linalg.Mat3, p.B)
		pos := make([]linalg.Vec3, p.B)
		var ns *newtonScratch
		if steps > 0 {
			if ns = systems.get(); ns == nil {
				ns = newNewtonScratch(p.B)
			}
			defer systems.put(ns)
		}
		for f := lo; f < hi; f++ {
			fr := p.FrameInto(buf, f)
			buf = fr
			mf := p.M[f*p.B : (f+1)*p.B]
			vsum, vv := ls.frameSums(fr, v)
			for a := range rot {
				rot[a] = mf[a].M
			}
			rootPos := mf[root].Apply(h.Head[root])
			for s := 0; s < sweeps; s++ {
				var moved float64
				for _, a := range h.Order {
					// M_a = V_a − p S_aᵀ − Σ_{b≠a} R_b C_ba, C_ba = C_abᵀ.
					m := v[a].Sub(linalg.Outer(rootPos, ls.sum[a]))
					for _, pr := range ls.pairs[ls.pstart[a]:ls.pstart[a+1]] {
						m = m.Sub(rot[pr.b].Mul(pr.c))
					}
					nr := linalg.BestRotation(m).Mat3()
					moved = max(moved, frobenius2(nr.Sub(rot[a])))
					rot[a] = nr
				}
				// Root: weights sum to one, so p shifts every vertex alike:
				// p = (Σ_i v_i − Σ_a R_a S_a)/N.
				np := vsum
				for a := 0; a < p.B; a++ {
					np = np.Sub(rot[a].MulVec(ls.sum[a]))
				}
				rootPos = np.Scale(invN)
				if moved < rotationTol*rotationTol {
					break
				}
			}
			if steps > 0 {
				ls.newtonFrame(rot, v, &rootPos, vsum, vv, float64(p.N), steps, ns)
			}
			sse[f] = max(0, vv+ls.quadratic(rot, v, rootPos, vsum, float64(p.N)))
			// Forward kinematics back to skin transforms.
			for _, b := range h.Order {
				if pb := h.Parent[b]; pb < 0 {
					pos[b] = rootPos
				} else {
					pos[b] = pos[pb].Add(rot[pb].MulVec(h.Head[b].Sub(h.Head[pb])))
				}
				mf[b] = linalg.Affine{M: rot[b], T: pos[b].Sub(rot[b].MulVec(h.Head[b]))}
			}
		}
	})
	var total float64
	for _, e := range sse {
		total += e
	}
	return total
}

// frameSums returns a frame's sums the fit needs besides the lever sums:
// V_a = Σ_i x_i z_iaᵀ over bone a's levers (into v), Σ_i x_i and
// Σ_i ‖x_i‖², fr being the frame's targets.
func (ls *leverSums) frameSums(fr []linalg.Vec3, v []linalg.Mat3) (vsum linalg.Vec3, vv float64) {
	for _, x := range fr {
		vsum = vsum.Add(x)
		vv += x.Norm2()
	}
	for a := range v {
		var m linalg.Mat3
		for r := ls.start[a]; r < ls.start[a+1]; r++ {
			x, z := fr[ls.idx[r]], ls.arm[r]
			for q := 0; q < 3; q++ {
				m[q][0] += x[q] * z[0]
				m[q][1] += x[q] * z[1]
				m[q][2] += x[q] * z[2]
			}
		}
		v[a] = m
	}
	return vsum, vv
}
