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
