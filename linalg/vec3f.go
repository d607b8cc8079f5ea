package linalg

import "math"

// Vec3f is a point stored in single precision: the positions of a
// sequence's frames, held once at 12 bytes instead of Vec3's 24. The files
// they come from hold float32 already (glTF, PC2, MDD, Alembic, FBX
// vertices); OBJ's decimal text is rounded to the nearest float32. Compute
// in Vec3 (Vec3f.Vec3); Vec3f has no arithmetic.
type Vec3f [3]float32

// Vec3 returns a in double precision (exactly).
func (a Vec3f) Vec3() Vec3 { return Vec3{float64(a[0]), float64(a[1]), float64(a[2])} }

// Vec3f returns a rounded to the nearest single-precision point; a
// component beyond ±math.MaxFloat32 becomes infinite.
func (a Vec3) Vec3f() Vec3f { return Vec3f{float32(a[0]), float32(a[1]), float32(a[2])} }

// IsFinite reports whether every component is neither NaN nor infinite.
func (a Vec3f) IsFinite() bool {
	for _, x := range a {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
