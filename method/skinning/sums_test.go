package skinning

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// perturbed returns the tube model with every transform moved off the
// truth by a random rigid change, and weights spread over all three
// bones, so the sums see blending and a residual.
func perturbed(t *testing.T) (*Model, Hierarchy) {
	m, h, _ := tubeModel(t, 0.1)
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < m.N; i++ {
		for k := 0; k < 3; k++ {
			m.WB[i*MaxK+k], m.WW[i*MaxK+k] = int32(k), 0.2+r.Float64()
		}
		m.WB[i*MaxK+3], m.WW[i*MaxK+3] = -1, 0
		NormalizeSlots(m.WB[i*MaxK:(i+1)*MaxK], m.WW[i*MaxK:(i+1)*MaxK])
	}
	for x := range m.M {
		axis := linalg.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		q := linalg.QuatFromAxisAngle(axis.Scale(1/axis.Norm()), 0.2*r.NormFloat64())
		m.M[x] = linalg.Affine{M: q.Mat3().Mul(m.M[x].M), T: m.M[x].T.Add(linalg.Vec3{0.05 * r.NormFloat64(), 0, 0})}
	}
	return m, h
}

// The transform update's error, computed from frame-independent pair
// sums, is the data term summed vertex by vertex.
func TestUpdateTransformsErrorFromSums(t *testing.T) {
	m, _ := perturbed(t)
	before := m.SSE()
	got := m.UpdateTransforms(0, nil)
	want := m.SSE()
	if math.Abs(got-want) > 1e-9*want {
		t.Fatalf("UpdateTransforms returned %.12g, SSE is %.12g", got, want)
	}
	if want > before {
		t.Fatalf("the update raised the error: %g → %g", before, want)
	}
}

// Each bone's update is the exact minimizer given the others: a second
// pass cannot do better by more than round-off when the first has
// converged, and never worse.
func TestUpdateTransformsDescends(t *testing.T) {
	m, _ := perturbed(t)
	prev := math.Inf(1)
	for it := 0; it < 20; it++ {
		e := m.UpdateTransforms(0, nil)
		if e > prev*(1+1e-12) {
			t.Fatalf("pass %d raised the error: %g → %g", it, prev, e)
		}
		prev = e
	}
}

// skeletal fails t unless, in every frame of m, each child's head goes
// where its parent carries it.
func skeletal(t *testing.T, m *Model, h Hierarchy) {
	t.Helper()
	for f := 0; f < m.F; f++ {
		mf := m.M[f*m.B : (f+1)*m.B]
		for _, b := range h.Order {
			if pb := h.Parent[b]; pb >= 0 {
				if d := mf[b].Apply(h.Head[b]).Dist(mf[pb].Apply(h.Head[b])); d > 1e-9 {
					t.Fatalf("frame %d bone %d: head off its parent by %g", f, b, d)
				}
			}
		}
	}
}

// FitRotations works on lever sums; its result must lower the error
// measured vertex by vertex and keep the transforms skeletal.
func TestFitRotationsFromSums(t *testing.T) {
	m, h := perturbed(t)
	m.Constrain(h)
	before := m.SSE()
	m.FitRotations(h, 30)
	after := m.SSE()
	if !(after < before) {
		t.Fatalf("FitRotations did not lower the error: %g → %g", before, after)
	}
	skeletal(t, m, h)
	// A second call from the optimum barely moves it.
	m.FitRotations(h, 30)
	if again := m.SSE(); again > after*(1+1e-6) {
		t.Fatalf("second fit raised the error: %g → %g", after, again)
	}
}

// FitRotations' returned error, from lever sums, is the data term summed
// vertex by vertex.
func TestFitRotationsErrorFromSums(t *testing.T) {
	m, h := perturbed(t)
	m.Constrain(h)
	got := m.FitRotations(h, 5)
	if want := m.SSE(); math.Abs(got-want) > 1e-9*want {
		t.Fatalf("FitRotations returned %.12g, SSE is %.12g", got, want)
	}
}

// The Newton steps reach (to their stopping gain) the error block sweeps
// reach only after thousands, from the same start (a far one: every
// transform turned at random, weights spread at random, so the residual
// is large and Gauss–Newton converges linearly), keep the transforms
// skeletal and return the data term; FitRotationsNewton's few steps gain
// on its sweeps.
func TestFitRotationsNewton(t *testing.T) {
	start, h := perturbed(t)
	start.Constrain(h)
	fit := func(f func(m *Model) float64) (*Model, float64) {
		m := *start
		m.M = append([]linalg.Affine(nil), start.M...)
		return &m, f(&m)
	}
	_, few := fit(func(m *Model) float64 { return m.FitRotations(h, newtonSweeps) })
	_, many := fit(func(m *Model) float64 { return m.FitRotations(h, 2000) })
	_, quick := fit(func(m *Model) float64 { return m.FitRotationsNewton(h, 30) })
	m, got := fit(func(m *Model) float64 { return m.fitRotations(h, newtonSweeps, 300) })
	t.Logf("error after %d sweeps %.9g, 2000 sweeps %.9g, Newton %d steps %.9g, 300 steps %.9g", newtonSweeps, few, many, newtonSteps, quick, got)
	if want := m.SSE(); math.Abs(got-want) > 1e-9*want {
		t.Fatalf("FitRotationsNewton returned %.12g, SSE is %.12g", got, want)
	}
	if got > many*(1+1e-4) || !(quick < few) {
		t.Errorf("Newton's error %.9g (%d steps %.9g): not at 2000 sweeps' %.9g, or not under %d sweeps' %.9g", got, newtonSteps, quick, many, newtonSweeps, few)
	}
	skeletal(t, m, h)
}
