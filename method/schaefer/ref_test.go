package schaefer

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

func randTri(r *rand.Rand) [3]linalg.Vec3 {
	var t [3]linalg.Vec3
	for j := range t {
		t[j] = linalg.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	}
	return t
}

// numeric integrates |R p(t) + T − q(t)|² over a triangle by the midpoint
// rule on its n² congruent sub-triangles.
func numeric(p, q [3]linalg.Vec3, a linalg.Affine) float64 {
	const n = 100
	area := 0.5 * p[1].Sub(p[0]).Cross(p[2].Sub(p[0])).Norm()
	var s float64
	at := func(u, v float64) float64 {
		x := p[0].Scale(1 - u - v).Add(p[1].Scale(u)).Add(p[2].Scale(v))
		y := q[0].Scale(1 - u - v).Add(q[1].Scale(u)).Add(q[2].Scale(v))
		return a.Apply(x).Sub(y).Norm2()
	}
	for i := 0; i < n; i++ {
		for j := 0; i+j < n; j++ {
			s += at((float64(i)+1.0/3)/n, (float64(j)+1.0/3)/n)
			if i+j < n-1 {
				s += at((float64(i)+2.0/3)/n, (float64(j)+2.0/3)/n)
			}
		}
	}
	return s / (n * n) * area
}

func TestREFIntegralsAndFit(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for trial := 0; trial < 20; trial++ {
		p, q := randTri(r), randTri(r)
		f := faceREF(p, q)
		x := linalg.Rigid(linalg.Quat{W: 1, X: 0.2, Y: -0.1, Z: 0.3}.Normalize(), linalg.Vec3{0.1, 0.5, -0.2})
		if got, want := f.errorUnder(x), numeric(p, q, x); math.Abs(got-want) > 1e-4*(1+want) {
			t.Fatalf("error under a transform: %v, numeric %v", got, want)
		}
		best := f.transform()
		if got, want := f.fitError(), f.errorUnder(best); math.Abs(got-want) > 1e-9*(1+want) {
			t.Fatalf("fitError %v, error of the best transform %v", got, want)
		}
		if f.fitError() > f.errorUnder(x)+1e-12 {
			t.Fatalf("best fit worse than an arbitrary transform")
		}
	}
}

// TestREFMergeRecoversRigidMotion: triangles moved by one rigid
// transform, merged, fit it exactly — including a planar set (a flat
// cluster, where a polar decomposition fails).
func TestREFMergeRecoversRigidMotion(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	want := linalg.Rigid(linalg.QuatFromAxisAngle(linalg.Vec3{1, 2, 3}, 1.1), linalg.Vec3{3, -1, 2})
	for _, planar := range []bool{false, true} {
		var sum ref
		for i := 0; i < 10; i++ {
			p := randTri(r)
			if planar {
				for j := range p {
					p[j][2] = 0
				}
			}
			q := [3]linalg.Vec3{want.Apply(p[0]), want.Apply(p[1]), want.Apply(p[2])}
			f := faceREF(p, q)
			sum.add(&f)
		}
		if e := sum.fitError(); e > 1e-9*sum.a {
			t.Fatalf("planar=%v: rigid motion fits with error %v", planar, e)
		}
		got := sum.transform()
		x := linalg.Vec3{0.3, -0.7, 0.1}
		if got.Apply(x).Dist(want.Apply(x)) > 1e-9 {
			t.Fatalf("planar=%v: transform %v, want %v", planar, got, want)
		}
	}
}
