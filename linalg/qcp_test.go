package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxRotationTraceMatchesEigen compares with the eigenvector route:
// tr(Rᵀa) for Horn's rotation, on full-rank, planar and collinear sets.
func TestMaxRotationTraceMatchesEigen(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 300; trial++ {
		var a Mat3
		for i := 0; i < 5; i++ {
			p := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			q := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			switch trial % 3 {
			case 1:
				p[2], q[2] = 0, 0
			case 2:
				p = Vec3{float64(i), 0, 0}
			}
			a = a.Add(Outer(q, p))
		}
		rot := BestRotation(a).Mat3()
		var want float64
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				want += rot[i][j] * a[i][j]
			}
		}
		// A (near-)double root of the quartic is ill-conditioned: ~√ε.
		if got := MaxRotationTrace(a); math.Abs(got-want) > 1e-7*(1+math.Abs(want)) {
			t.Fatalf("trial %d: %v, want %v", trial, got, want)
		}
	}
	if MaxRotationTrace(Mat3{}) != 0 {
		t.Fatal("zero matrix")
	}
}

func BenchmarkMaxRotationTrace(b *testing.B) {
	a := Mat3{{1, 0.2, 0.1}, {0.3, 0.9, -0.2}, {0.1, 0.1, 1.1}}
	for b.Loop() {
		MaxRotationTrace(a)
	}
}

func BenchmarkBestRotation(b *testing.B) {
	a := Mat3{{1, 0.2, 0.1}, {0.3, 0.9, -0.2}, {0.1, 0.1, 1.1}}
	for b.Loop() {
		BestRotation(a)
	}
}
