package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestBestRotationRecoversRotation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 200; trial++ {
		q := randQuat(r)
		var a Mat3
		// Planar point sets (every third trial) must work too.
		for i := 0; i < 6; i++ {
			p := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			if trial%3 == 0 {
				p[2] = 0
			}
			a = a.Add(Outer(q.Rotate(p), p))
		}
		got := BestRotation(a)
		if math.Abs(math.Abs(got.Dot(q))-1) > 1e-9 {
			t.Fatalf("trial %d: got %v want ±%v", trial, got, q)
		}
	}
}

func TestSymEigen3(t *testing.T) {
	m := Mat3{{4, 1, 0}, {1, 3, 0}, {0, 0, 1}}
	vals, v := SymEigen3(m)
	for i := 0; i < 3; i++ {
		e := v.Col(i)
		if m.MulVec(e).Dist(e.Scale(vals[i])) > 1e-12 {
			t.Fatalf("eigenpair %d wrong", i)
		}
	}
	if !(vals[0] >= vals[1] && vals[1] >= vals[2]) {
		t.Fatalf("not sorted: %v", vals)
	}
}

// The QCP route (adjugate column) must give the eigensolver's rotation on
// ordinary and degenerate inputs: rank 1 and 2 (collinear, planar point
// sets), half turns (repeated eigenvalues) and the zero matrix.
func TestBestRotationMatchesEigen(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	eigen := func(a Mat3) float64 {
		sxx, sxy, sxz := a[0][0], a[1][0], a[2][0]
		syx, syy, syz := a[0][1], a[1][1], a[2][1]
		szx, szy, szz := a[0][2], a[1][2], a[2][2]
		vals, _ := SymEigen4([4][4]float64{
			{sxx + syy + szz, syz - szy, szx - sxz, sxy - syx},
			{syz - szy, sxx - syy - szz, sxy + syx, szx + sxz},
			{szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy},
			{sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz},
		})
		return vals[0]
	}
	randVec := func() Vec3 { return Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()} }
	var cases []Mat3
	for i := 0; i < 300; i++ {
		var a Mat3
		switch i % 5 {
		case 0: // general
			for x := 0; x < 3; x++ {
				for y := 0; y < 3; y++ {
					a[x][y] = r.NormFloat64()
				}
			}
		case 1: // rank 1: collinear points
			a = Outer(randVec(), randVec())
		case 2: // rank 2: planar points
			a = Outer(randVec(), randVec()).Add(Outer(randVec(), randVec()))
		case 3: // a half turn of a full-rank cloud
			axis := randVec()
			a = QuatFromAxisAngle(axis.Scale(1/axis.Norm()), math.Pi).Mat3().Mul(Outer(randVec(), randVec()).Add(Outer(randVec(), randVec())).Add(Outer(randVec(), randVec())))
		case 4: // a rotation of the identity: tr maximal at the rotation itself
			axis := randVec()
			a = QuatFromAxisAngle(axis.Scale(1/axis.Norm()), r.Float64()*math.Pi).Mat3()
		}
		cases = append(cases, a)
	}
	cases = append(cases, Mat3{}, Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, Mat3{{-1, 0, 0}, {0, -1, 0}, {0, 0, 1}})
	for i, a := range cases {
		rot := BestRotation(a).Mat3()
		var got float64
		for x := 0; x < 3; x++ {
			for y := 0; y < 3; y++ {
				got += rot[x][y] * a[x][y]
			}
		}
		if want := eigen(a); got < want-1e-9*(1+math.Abs(want)) {
			t.Fatalf("case %d: tr(Rᵀa) = %.15g, the eigensolver reaches %.15g", i, got, want)
		}
		if d := rot.Det(); math.Abs(d-1) > 1e-9 {
			t.Fatalf("case %d: det R = %g", i, d)
		}
	}
}
