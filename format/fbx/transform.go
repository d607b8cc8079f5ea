package fbx

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// RotationOrder is FBX's Euler order enum (Properties70 "RotationOrder"):
// XYZ means X is applied first, so R = Rz·Ry·Rx.
type RotationOrder int

// The Euler orders; SphericXYZ is read as XYZ, as the FBX SDK evaluates it.
const (
	XYZ RotationOrder = iota
	XZY
	YZX
	YXZ
	ZXY
	ZYX
	SphericXYZ
)

// axes returns the order's axes, first applied first.
func (o RotationOrder) axes() [3]int {
	switch o {
	case XZY:
		return [3]int{0, 2, 1}
	case YZX:
		return [3]int{1, 2, 0}
	case YXZ:
		return [3]int{1, 0, 2}
	case ZXY:
		return [3]int{2, 0, 1}
	case ZYX:
		return [3]int{2, 1, 0}
	}
	return [3]int{0, 1, 2}
}

// EulerMat3 returns the rotation of Euler angles deg (degrees about X, Y,
// Z) applied in order o: for XYZ, Rz·Ry·Rx.
func EulerMat3(deg linalg.Vec3, o RotationOrder) linalg.Mat3 {
	m := linalg.Identity3()
	for _, a := range o.axes() {
		m = axisMat3(a, deg[a]*math.Pi/180).Mul(m)
	}
	return m
}

// axisMat3 is the rotation by rad about axis a (0 X, 1 Y, 2 Z).
func axisMat3(a int, rad float64) linalg.Mat3 {
	c, s := math.Cos(rad), math.Sin(rad)
	switch a {
	case 0:
		return linalg.Mat3{{1, 0, 0}, {0, c, -s}, {0, s, c}}
	case 1:
		return linalg.Mat3{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}
	}
	return linalg.Mat3{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
}

// Transform is a Model's local transform as FBX stores it: the animatable
// Lcl Translation/Rotation/Scaling (rotations in degrees) and the fixed
// pivots, offsets and pre/post rotations around them.
type Transform struct {
	Translation, Rotation, Scaling    linalg.Vec3
	PreRotation, PostRotation         linalg.Vec3 // degrees, always XYZ
	RotationOffset, RotationPivot     linalg.Vec3
	ScalingOffset, ScalingPivot       linalg.Vec3
	Order                             RotationOrder
	GeometricTranslation              linalg.Vec3
	GeometricRotation, GeometricScale linalg.Vec3 // degrees (XYZ); scale
}

// Local returns the node's transform in its parent's frame, the FBX SDK's
// chain (Autodesk FBX SDK documentation, "Computing transformation
// matrices"):
//
//	T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹
func (x *Transform) Local() linalg.Affine {
	tr := linalg.Translation
	rot := func(m linalg.Mat3) linalg.Affine { return linalg.Affine{M: m} }
	scale := linalg.Affine{M: linalg.Mat3{{x.Scaling[0], 0, 0}, {0, x.Scaling[1], 0}, {0, 0, x.Scaling[2]}}}
	m := tr(x.Translation).Mul(tr(x.RotationOffset)).Mul(tr(x.RotationPivot))
	m = m.Mul(rot(EulerMat3(x.PreRotation, XYZ)))
	m = m.Mul(rot(EulerMat3(x.Rotation, x.Order)))
	m = m.Mul(rot(EulerMat3(x.PostRotation, XYZ).T()))
	m = m.Mul(tr(x.RotationPivot.Scale(-1))).Mul(tr(x.ScalingOffset)).Mul(tr(x.ScalingPivot))
	m = m.Mul(scale).Mul(tr(x.ScalingPivot.Scale(-1)))
	return m
}

// Geometric returns the geometric transform: applied to the node's own
// geometry only, not inherited by its children.
func (x *Transform) Geometric() linalg.Affine {
	s := x.GeometricScale
	m := linalg.Affine{M: EulerMat3(x.GeometricRotation, XYZ).Mul(linalg.Mat3{{s[0], 0, 0}, {0, s[1], 0}, {0, 0, s[2]}})}
	m.T = x.GeometricTranslation
	return m
}
