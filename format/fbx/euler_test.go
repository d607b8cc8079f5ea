package fbx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// TestEulerXYZ: the angles give back the rotation, stay near the previous
// frame's, and pass through gimbal lock.
func TestEulerXYZ(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	prev := linalg.Vec3{}
	for k := 0; k < 2000; k++ {
		q := linalg.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		if k%100 == 0 {
			q = linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 0}, math.Pi/2) // gimbal lock
		}
		e := eulerXYZ(q, prev)
		got, want := EulerMat3(e, XYZ), q.Mat3()
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				if math.Abs(got[i][j]-want[i][j]) > 1e-9 {
					t.Fatalf("rotation %v: angles %v give %v", q, e, got)
				}
			}
		}
		prev = e
	}
	// A steady spin about Z: no jump at ±180°.
	prev = linalg.Vec3{}
	for k := 1; k <= 100; k++ {
		e := eulerXYZ(linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, float64(k)*0.1), prev)
		if e.Sub(prev).Norm() > 0.1*180/math.Pi+1e-9 {
			t.Fatalf("step %d: %v after %v", k, e, prev)
		}
		prev = e
	}
	if want := 1000 * 0.1 / 10 * 180 / math.Pi; math.Abs(prev[2]-want) > 1e-6 {
		t.Errorf("after 10 rad about Z: z = %v°, want %v°", prev[2], want)
	}
}
