package fbx

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// eulerXYZ returns Euler angles in degrees (X applied first: R = Rz·Ry·Rx)
// for rotation q, of the two solutions (and their 360° turns) the nearest
// to prev, so that curves keyed frame by frame do not jump.
func eulerXYZ(q linalg.Quat, prev linalg.Vec3) linalg.Vec3 {
	m := q.Mat3()
	sy := math.Max(-1, math.Min(1, -m[2][0]))
	var x, y, z float64
	y = math.Asin(sy)
	if math.Abs(sy) < 1-1e-12 {
		x = math.Atan2(m[2][1], m[2][2])
		z = math.Atan2(m[1][0], m[0][0])
	} else {
		// Gimbal lock: only x − z (or x + z) is defined; keep z from prev.
		z = prev[2] * math.Pi / 180
		if sy > 0 {
			x = z + math.Atan2(m[0][1], m[1][1])
		} else {
			x = -z + math.Atan2(-m[0][1], m[1][1])
		}
	}
	deg := 180 / math.Pi
	a := linalg.Vec3{x * deg, y * deg, z * deg}
	b := linalg.Vec3{a[0] + 180, 180 - a[1], a[2] + 180}
	a, b = near(a, prev), near(b, prev)
	if b.Sub(prev).Norm2() < a.Sub(prev).Norm2() {
		return b
	}
	return a
}

// near turns each angle of a by whole turns to lie within 180° of prev.
func near(a, prev linalg.Vec3) linalg.Vec3 {
	for k := range a {
		a[k] -= 360 * math.Round((a[k]-prev[k])/360)
	}
	return a
}
