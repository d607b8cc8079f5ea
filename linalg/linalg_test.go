package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randQuat(r *rand.Rand) Quat {
	return Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
}

func near(a, b Vec3, tol float64) bool { return a.Dist(b) <= tol }

func TestQuatMatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		q := randQuat(r)
		v := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if !near(q.Rotate(v), q.Mat3().MulVec(v), 1e-12) {
			t.Fatalf("Rotate and Mat3 disagree for %v", q)
		}
		p := QuatFromMat3(q.Mat3())
		if math.Abs(math.Abs(p.Dot(q))-1) > 1e-12 {
			t.Fatalf("QuatFromMat3(Mat3(q)) = %v, want ±%v", p, q)
		}
		if d := q.Mat3().Det(); math.Abs(d-1) > 1e-12 {
			t.Fatalf("det = %v", d)
		}
	}
}

func TestQuatMulComposes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a, b := randQuat(r), randQuat(r)
	v := Vec3{1, 2, 3}
	if !near(a.Mul(b).Rotate(v), a.Rotate(b.Rotate(v)), 1e-12) {
		t.Fatal("(ab)v != a(bv)")
	}
	if !near(a.Conj().Rotate(a.Rotate(v)), v, 1e-12) {
		t.Fatal("conj is not the inverse")
	}
}

func TestSlerp(t *testing.T) {
	a := IdentityQuat
	b := QuatFromAxisAngle(Vec3{0, 0, 1}, math.Pi/2)
	m := Slerp(a, b, 0.5)
	if got := m.Angle(); math.Abs(got-math.Pi/4) > 1e-12 {
		t.Fatalf("half-way angle %v, want π/4", got)
	}
	// Shorter arc: -b is the same rotation.
	m2 := Slerp(a, Quat{-b.W, -b.X, -b.Y, -b.Z}, 0.5)
	if math.Abs(math.Abs(m.Dot(m2))-1) > 1e-12 {
		t.Fatal("slerp does not take the shorter arc")
	}
}

func TestAffineInverseAndMat4(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a := TRS(Vec3{1, -2, 3}, randQuat(r), Vec3{2, 0.5, 1.5})
	ai, ok := a.Inverse()
	if !ok {
		t.Fatal("not invertible")
	}
	p := Vec3{0.3, 0.7, -1.1}
	if !near(ai.Apply(a.Apply(p)), p, 1e-12) {
		t.Fatal("inverse fails")
	}
	if b := AffineFromMat4(a.Mat4()); !near(b.Apply(p), a.Apply(p), 1e-15) {
		t.Fatal("Mat4 round trip fails")
	}
	if _, ok := (Affine{}).Inverse(); ok {
		t.Fatal("zero matrix reported invertible")
	}
}
