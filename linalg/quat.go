package linalg

import "math"

// Quat is a quaternion W + Xi + Yj + Zk. Rotations use unit quaternions.
type Quat struct{ W, X, Y, Z float64 }

// IdentityQuat is the rotation by zero.
var IdentityQuat = Quat{W: 1}

// QuatFromAxisAngle returns the rotation by angle radians about axis (any
// non-zero length).
func QuatFromAxisAngle(axis Vec3, angle float64) Quat {
	a := axis.Unit()
	s, c := math.Sincos(angle / 2)
	return Quat{c, a[0] * s, a[1] * s, a[2] * s}
}

// Mul returns the Hamilton product q·r (apply r first, then q).
func (q Quat) Mul(r Quat) Quat {
	return Quat{
		q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
		q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
	}
}

// Conj returns the conjugate, the inverse of a unit quaternion.
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Dot returns the 4D dot product.
func (q Quat) Dot(r Quat) float64 { return q.W*r.W + q.X*r.X + q.Y*r.Y + q.Z*r.Z }

// Normalize returns q scaled to unit length (identity for the zero quaternion).
func (q Quat) Normalize() Quat {
	n := math.Sqrt(q.Dot(q))
	if n == 0 {
		return IdentityQuat
	}
	return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}
}

// Rotate applies the unit quaternion q to v.
func (q Quat) Rotate(v Vec3) Vec3 {
	// v + 2w(u×v) + 2u×(u×v), u the vector part.
	u := Vec3{q.X, q.Y, q.Z}
	t := u.Cross(v).Scale(2)
	return v.Add(t.Scale(q.W)).Add(u.Cross(t))
}

// Mat3 returns the rotation matrix of the unit quaternion q.
func (q Quat) Mat3() Mat3 {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	return Mat3{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// QuatFromMat3 returns the unit quaternion of rotation matrix m (Shepperd's
// method, stable for every angle). m should be orthonormal with det +1.
func QuatFromMat3(m Mat3) Quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	var q Quat
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(tr+1)
		q = Quat{s / 4, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := 2 * math.Sqrt(1+m[0][0]-m[1][1]-m[2][2])
		q = Quat{(m[2][1] - m[1][2]) / s, s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s}
	case m[1][1] > m[2][2]:
		s := 2 * math.Sqrt(1+m[1][1]-m[0][0]-m[2][2])
		q = Quat{(m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s}
	default:
		s := 2 * math.Sqrt(1+m[2][2]-m[0][0]-m[1][1])
		q = Quat{(m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4}
	}
	if q.W < 0 {
		q = Quat{-q.W, -q.X, -q.Y, -q.Z}
	}
	return q.Normalize()
}

// Slerp interpolates between unit quaternions a and b along the shorter arc.
func Slerp(a, b Quat, t float64) Quat {
	d := a.Dot(b)
	if d < 0 {
		b = Quat{-b.W, -b.X, -b.Y, -b.Z}
		d = -d
	}
	if d > 0.9995 {
		return Quat{
			a.W + t*(b.W-a.W), a.X + t*(b.X-a.X), a.Y + t*(b.Y-a.Y), a.Z + t*(b.Z-a.Z),
		}.Normalize()
	}
	th := math.Acos(d)
	s := math.Sin(th)
	wa, wb := math.Sin((1-t)*th)/s, math.Sin(t*th)/s
	return Quat{wa*a.W + wb*b.W, wa*a.X + wb*b.X, wa*a.Y + wb*b.Y, wa*a.Z + wb*b.Z}
}

// Angle returns the rotation angle of unit quaternion q in [0, π].
func (q Quat) Angle() float64 {
	w := math.Min(1, math.Abs(q.W))
	return 2 * math.Acos(w)
}
