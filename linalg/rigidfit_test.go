package linalg

import (
	"math/rand/v2"
	"testing"
)

func TestRigidFitRecoversTransform(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	want := Rigid(randQuat(r), Vec3{1, -2, 0.5})
	var fit, a, b RigidFit
	for i := 0; i < 20; i++ {
		x := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		w := 0.1 + r.Float64()
		fit.Add(x, want.Apply(x), w)
		if i%2 == 0 {
			a.Add(x, want.Apply(x), w)
		} else {
			b.Add(x, want.Apply(x), w)
		}
	}
	a.Merge(&b)
	for _, f := range []*RigidFit{&fit, &a} {
		got := f.Solve()
		p := Vec3{0.3, 0.2, -0.7}
		if got.Apply(p).Dist(want.Apply(p)) > 1e-9 {
			t.Fatalf("fit %v, want %v", got, want)
		}
	}
	var empty RigidFit
	if empty.Solve() != IdentityAffine() {
		t.Fatal("empty fit is not the identity")
	}
}
