// Package linalg holds the small fixed-size math every stage shares:
// 3-vectors, 3×3 matrices, unit quaternions and affine (rotation or general
// 3×3 plus translation) transforms; Vec3f, a float32 point, stores frames.
//
// All types are values; nothing here allocates. Sparse and dense bulk
// linear algebra live elsewhere (gonum for dense).
//
//	q := linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, math.Pi/2)
//	p := q.Rotate(linalg.Vec3{1, 0, 0}) // ≈ (0, 1, 0)
package linalg
