package skinning

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"gonum.org/v1/gonum/mat"
)

// treeModel is a random model over a 7-bone tree rooted at bone 3, its
// order not the index order: n vertices with 1–3 random weights on the
// bones not listed in empty, f frames whose targets are the blend under
// random rotations plus noise, the transforms turned off them and made
// skeletal.
func treeModel(t *testing.T, n, f int, empty map[int]bool, seed uint64) (*Model, Hierarchy) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	turn := func(ang float64) linalg.Mat3 {
		axis := linalg.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		return linalg.QuatFromAxisAngle(axis.Scale(1/axis.Norm()), ang*r.NormFloat64()).Mat3()
	}
	h := Hierarchy{Parent: []int32{3, 0, 0, -1, 3, 4, 1}, Order: []int32{3, 4, 0, 5, 2, 1, 6}}
	b := len(h.Parent)
	for a := 0; a < b; a++ {
		h.Head = append(h.Head, linalg.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()})
	}
	h.Prior = append([]linalg.Vec3(nil), h.Head...)
	var live []int32
	for a := 0; a < b; a++ {
		if !empty[a] {
			live = append(live, int32(a))
		}
	}
	m := &Model{N: n, F: f, B: b}
	for i := 0; i < n; i++ {
		m.Rest = append(m.Rest, linalg.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()})
		slots, ws := []int32{-1, -1, -1, -1}, []float64{0, 0, 0, 0}
		for s, k := range r.Perm(len(live))[:1+r.IntN(min(3, len(live)))] {
			slots[s], ws[s] = live[k], 0.2+r.Float64()
		}
		NormalizeSlots(slots, ws)
		m.WB, m.WW = append(m.WB, slots...), append(m.WW, ws...)
	}
	for x := 0; x < f*b; x++ {
		m.M = append(m.M, linalg.Affine{M: turn(0.5), T: linalg.Vec3{0.1 * r.NormFloat64(), 0, 0}})
	}
	m.Frames = make([]linalg.Vec3, f*n)
	for fr := 0; fr < f; fr++ {
		for i := 0; i < n; i++ {
			x := linalg.Vec3{0.3 * r.NormFloat64(), 0.3 * r.NormFloat64(), 0.3 * r.NormFloat64()}
			for k := 0; k < MaxK; k++ {
				if j := m.WB[i*MaxK+k]; j >= 0 {
					x = x.Add(m.M[fr*b+int(j)].Apply(m.Rest[i]).Scale(m.WW[i*MaxK+k]))
				}
			}
			m.Frames[fr*n+i] = x
		}
	}
	for x := range m.M {
		m.M[x].M = turn(0.3).Mul(m.M[x].M)
	}
	m.Constrain(h)
	return m, h
}

// frameState is one frame of a model as newtonFrame sees it, with the
// Newton system at its rotations and root position.
type frameState struct {
	s       *newtonScratch
	fr      []linalg.Vec3 // the targets
	rot, v  []linalg.Mat3
	p, vsum linalg.Vec3
	vv      float64
}

// frameSystem is frame f of m, its system filled by newtonSystem.
func frameSystem(m *Model, h Hierarchy, ls *leverSums, f int) frameState {
	st := frameState{fr: m.Frame(f), v: make([]linalg.Mat3, m.B), rot: make([]linalg.Mat3, m.B), s: newNewtonScratch(m.B)}
	st.vsum, st.vv = ls.frameSums(st.fr, st.v)
	for a := range st.rot {
		st.rot[a] = m.M[f*m.B+a].M
	}
	root := h.Order[0]
	st.p = m.M[f*m.B+int(root)].Apply(h.Head[root])
	ls.newtonSystem(st.rot, st.v, st.p, st.vsum, float64(m.N), st.s)
	return st
}

// energy is the frame's error at its rotations and root position.
func (st frameState) energy(ls *leverSums, n int) float64 {
	return st.vv + ls.quadratic(st.rot, st.v, st.p, st.vsum, float64(n))
}

// newtonSystem's matrix is JᵀJ and its right-hand side −Jᵀr, J and r
// built vertex by vertex (d(R_a z) = ω_a × R_a z, dp = δ), on the tree
// with bones of no weight of their own too; only the upper triangle is
// written.
func TestNewtonMatrix(t *testing.T) {
	for _, empty := range []map[int]bool{nil, {5: true, 6: true}} {
		m, h := treeModel(t, 200, 3, empty, 1)
		ls := m.newLeverSums(h)
		st := frameSystem(m, h, ls, 1)
		s, fr, rot, p := st.s, st.fr, st.rot, st.p
		n := s.n
		j := mat.NewDense(3*m.N, n, nil)
		res := mat.NewVecDense(3*m.N, nil)
		for i := 0; i < m.N; i++ {
			ri := p.Sub(fr[i])
			for k := 0; k < 3; k++ {
				j.Set(3*i+k, 3*m.B+k, 1)
			}
			for a := 0; a < m.B; a++ {
				for r := ls.start[a]; r < ls.start[a+1]; r++ {
					if int(ls.idx[r]) != i {
						continue
					}
					y := rot[a].MulVec(ls.arm[r])
					ri = ri.Add(y)
					sk := skew(y)
					for q := 0; q < 3; q++ {
						for c := 0; c < 3; c++ {
							j.Set(3*i+q, 3*a+c, -sk[q][c])
						}
					}
				}
			}
			for k := 0; k < 3; k++ {
				res.SetVec(3*i+k, ri[k])
			}
		}
		var jtj mat.Dense
		jtj.Mul(j.T(), j)
		var jtr mat.VecDense
		jtr.MulVec(j.T(), res)
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				want, got := jtj.At(a, b), s.h[a*n+b]
				if b < a {
					want = 0 // the lower triangle stays unwritten
				}
				if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("empty %v: H[%d][%d] = %.9g, JᵀJ %.9g", empty, a, b, got, want)
				}
			}
			if got, want := s.g[a], -jtr.AtVec(a); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("empty %v: g[%d] = %.9g, −Jᵀr %.9g", empty, a, got, want)
			}
		}
	}
}

// A bone with no weight of its own and one child has collinear levers:
// turning it about its lever axis changes nothing. The Newton steps must
// still reach, on every frame, the error thousands of sweeps reach: with
// each axis damped by its own diagonal entry the step turned such a bone
// by radians about that axis, every try was rejected, and 2 of 64 frames
// stayed where the sweeps had put them.
func TestNewtonCollinearBone(t *testing.T) {
	base, h := treeModel(t, 300, 64, map[int]bool{1: true}, 5)
	fit := func(f func(m *Model)) []float64 {
		m := *base
		m.M = append([]linalg.Affine(nil), base.M...)
		m.FitRotations(h, 2)
		f(&m)
		ls := m.newLeverSums(h)
		var es []float64
		for fr := 0; fr < m.F; fr++ {
			es = append(es, frameSystem(&m, h, ls, fr).energy(ls, m.N))
		}
		return es
	}
	newton := fit(func(m *Model) { m.fitRotations(h, 0, 50) })
	sweeps := fit(func(m *Model) { m.FitRotations(h, 5000) })
	for f := range newton {
		if newton[f] > sweeps[f]*(1+1e-6) {
			t.Errorf("frame %d: 50 Newton steps stop at %.9g, 5000 sweeps reach %.9g", f, newton[f], sweeps[f])
		}
	}
}

// newtonSystem's gradient is the error's, by central differences in
// every bone's rotation (R_a ← exp([ω_a]×)R_a) and the root position.
func TestNewtonGradient(t *testing.T) {
	m, h := perturbed(t)
	m.Constrain(h)
	ls := m.newLeverSums(h)
	st := frameSystem(m, h, ls, 1)
	energy := func(a, k int, eps float64) float64 {
		e := st
		e.rot = append([]linalg.Mat3(nil), st.rot...)
		if a < m.B {
			var w linalg.Vec3
			w[k] = 1
			e.rot[a] = linalg.QuatFromAxisAngle(w, eps).Mat3().Mul(st.rot[a])
		} else {
			e.p[k] += eps
		}
		return e.energy(ls, m.N)
	}
	const h6 = 1e-6
	for a := 0; a <= m.B; a++ {
		for k := 0; k < 3; k++ {
			num := (energy(a, k, h6) - energy(a, k, -h6)) / (2 * h6)
			// The system's g is the negative gradient of Σ‖r‖²/2.
			got := -2 * st.s.g[3*a+k]
			if math.Abs(num-got) > 1e-5*(1+math.Abs(num)) {
				t.Errorf("unknown %d.%d: gradient %.9g, central difference %.9g", a, k, got, num)
			}
		}
	}
}
