package linalg

// Affine is the transform p ↦ M·p + T. For rigid transforms M is a rotation.
type Affine struct {
	M Mat3
	T Vec3
}

// IdentityAffine returns the identity transform.
func IdentityAffine() Affine { return Affine{M: Identity3()} }

// Translation returns the pure translation by t.
func Translation(t Vec3) Affine { return Affine{M: Identity3(), T: t} }

// Rigid returns the rotation q followed by the translation t.
func Rigid(q Quat, t Vec3) Affine { return Affine{M: q.Mat3(), T: t} }

// Apply returns a(p).
func (a Affine) Apply(p Vec3) Vec3 { return a.M.MulVec(p).Add(a.T) }

// ApplyDir returns M·v, the transform of a direction.
func (a Affine) ApplyDir(v Vec3) Vec3 { return a.M.MulVec(v) }

// Mul returns the composition a∘b (apply b first).
func (a Affine) Mul(b Affine) Affine {
	return Affine{M: a.M.Mul(b.M), T: a.M.MulVec(b.T).Add(a.T)}
}

// Inverse returns a⁻¹ and false when M is singular.
func (a Affine) Inverse() (Affine, bool) {
	mi, ok := a.M.Inverse()
	if !ok {
		return Affine{}, false
	}
	return Affine{M: mi, T: mi.MulVec(a.T).Scale(-1)}, true
}

// Mat4 returns a as a column-major 4×4 matrix, the layout glTF and OpenGL use.
func (a Affine) Mat4() [16]float64 {
	m := a.M
	return [16]float64{
		m[0][0], m[1][0], m[2][0], 0,
		m[0][1], m[1][1], m[2][1], 0,
		m[0][2], m[1][2], m[2][2], 0,
		a.T[0], a.T[1], a.T[2], 1,
	}
}

// AffineFromMat4 reads a column-major 4×4 matrix, ignoring its last row.
func AffineFromMat4(c [16]float64) Affine {
	return Affine{
		M: Mat3{{c[0], c[4], c[8]}, {c[1], c[5], c[9]}, {c[2], c[6], c[10]}},
		T: Vec3{c[12], c[13], c[14]},
	}
}

// TRS returns translation·rotation·scale, the glTF node transform.
func TRS(t Vec3, q Quat, s Vec3) Affine {
	r := q.Mat3()
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] *= s[j]
		}
	}
	return Affine{M: r, T: t}
}
