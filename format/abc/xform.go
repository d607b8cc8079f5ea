package abc

import (
	"math"
	"strings"

	"github.com/meshrig/meshrig/linalg"
)

// OpKind is the kind of one Xform operation.
type OpKind uint8

// The Xform operations, numbered as Alembic numbers them.
const (
	OpScale OpKind = iota
	OpTranslate
	OpRotate
	OpMatrix
	OpRotateX
	OpRotateY
	OpRotateZ
)

// channels is the number of values each operation takes: a vector, an
// axis and an angle in degrees, a 4×4 matrix, an angle in degrees.
var channels = [...]int{3, 3, 4, 16, 1, 1, 1}

// Op is one Xform operation; Hint is the writer's label (a Maya pivot, a
// rotate orientation), which does not change the math.
type Op struct {
	Kind OpKind
	Hint uint8
}

// Xform is an Xform object: operations composed in order (the first is
// applied last, as Maya's translate·rotate·scale), their channel values
// per sample, and whether it inherits its parent's transform.
type Xform struct {
	Object *Object
	Ops    []Op
	// Channels is the number of values all operations take together.
	Channels int

	vals, inherits *Property
}

// IsXform reports whether o is an Xform object.
func IsXform(o *Object) bool { return strings.HasPrefix(o.Schema(), "AbcGeom_Xform_") }

// Xform reads an Xform object's operations. The operations are sample 0
// of ".ops" (uint8: kind<<4 | hint); channel values are ".vals" (a scalar
// of float64s, or an array when there are more than 255).
func (a *Archive) Xform(o *Object) (*Xform, error) {
	x := &Xform{Object: o}
	c := o.Props.Prop(".xform")
	if c == nil || c.Kind != Compound {
		return nil, o.errf("an Xform without its .xform compound")
	}
	if ops := c.Prop(".ops"); ops != nil && ops.Samples > 0 {
		codes, err := a.Int32s(ops, 0, nil)
		if err != nil {
			return nil, err
		}
		for _, v := range codes {
			k := OpKind(v >> 4)
			if int(k) >= len(channels) {
				return nil, ops.errf("unknown Xform operation %d", v>>4)
			}
			x.Ops = append(x.Ops, Op{Kind: k, Hint: uint8(v & 0xf)})
			x.Channels += channels[k]
		}
	}
	if v := c.Prop(".vals"); v != nil && v.Samples > 0 && v.Kind != Compound {
		x.vals = v
		got := v.Extent
		if v.Kind == Array {
			vals, err := a.Float64s(v, 0, nil)
			if err != nil {
				return nil, err
			}
			got = len(vals)
		}
		if got != x.Channels {
			return nil, v.errf("%d channel values for operations taking %d", got, x.Channels)
		}
	}
	if in := c.Prop(".inherits"); in != nil && in.Samples > 0 && in.Kind == Scalar {
		x.inherits = in
	}
	return x, nil
}

// Animated reports whether the channel values change over samples.
func (x *Xform) Animated() bool { return x.vals != nil && x.vals.Samples > 1 && !x.vals.Constant() }

// Local returns the Xform's local transform at time t seconds (channel
// values interpolated linearly between the samples around t, held before
// the first and after the last) and whether it inherits its parent's.
func (a *Archive) Local(x *Xform, t float64) (linalg.Affine, bool, error) {
	inh := true
	if x.inherits != nil {
		i0, _, _ := a.bracket(x.inherits, t)
		v, err := a.Int32s(x.inherits, i0, nil)
		if err != nil {
			return linalg.Affine{}, false, err
		}
		inh = len(v) == 0 || v[0] != 0
	}
	vals := make([]float64, x.Channels)
	for i, op := range x.Ops { // defaults: unit scale, zero elsewhere
		if op.Kind == OpScale {
			off := x.offset(i)
			vals[off], vals[off+1], vals[off+2] = 1, 1, 1
		}
	}
	if x.vals != nil {
		i0, i1, w := a.bracket(x.vals, t)
		v0, err := a.Float64s(x.vals, i0, nil)
		if err != nil {
			return linalg.Affine{}, false, err
		}
		if len(v0) != x.Channels {
			return linalg.Affine{}, false, x.vals.errf("sample %d: %d values, want %d", i0, len(v0), x.Channels)
		}
		copy(vals, v0)
		if w > 0 {
			v1, err := a.Float64s(x.vals, i1, nil)
			if err != nil {
				return linalg.Affine{}, false, err
			}
			if len(v1) != x.Channels {
				return linalg.Affine{}, false, x.vals.errf("sample %d: %d values, want %d", i1, len(v1), x.Channels)
			}
			for j := range vals {
				vals[j] += w * (v1[j] - vals[j])
			}
		}
	}
	m := linalg.IdentityAffine()
	off := 0
	for _, op := range x.Ops {
		c := vals[off : off+channels[op.Kind]]
		off += channels[op.Kind]
		m = m.Mul(opAffine(op.Kind, c))
	}
	for _, v := range m.M {
		for _, e := range v {
			if math.IsNaN(e) || math.IsInf(e, 0) {
				return linalg.Affine{}, false, x.Object.errf("at time %g: the transform is not finite", t)
			}
		}
	}
	if !m.T.IsFinite() {
		return linalg.Affine{}, false, x.Object.errf("at time %g: the transform is not finite", t)
	}
	return m, inh, nil
}

// offset returns where operation k's channels start.
func (x *Xform) offset(k int) int {
	off := 0
	for _, op := range x.Ops[:k] {
		off += channels[op.Kind]
	}
	return off
}

// opAffine is one operation as a transform of column vectors. Alembic
// composes operations as Imath row-vector matrices, m·ret per operation in
// order; for column vectors that is ret·m: the first operation outermost.
func opAffine(k OpKind, c []float64) linalg.Affine {
	deg := math.Pi / 180
	switch k {
	case OpScale:
		return linalg.Affine{M: linalg.Mat3{{c[0], 0, 0}, {0, c[1], 0}, {0, 0, c[2]}}}
	case OpTranslate:
		return linalg.Translation(linalg.Vec3{c[0], c[1], c[2]})
	case OpRotate:
		return rotation(linalg.Vec3{c[0], c[1], c[2]}, c[3]*deg)
	case OpMatrix:
		// Row-vector rows are column-vector columns: the 16 values are the
		// column-major matrix; a projective last row is dropped.
		var m [16]float64
		copy(m[:], c)
		return linalg.AffineFromMat4(m)
	case OpRotateX:
		return rotation(linalg.Vec3{1, 0, 0}, c[0]*deg)
	case OpRotateY:
		return rotation(linalg.Vec3{0, 1, 0}, c[0]*deg)
	default:
		return rotation(linalg.Vec3{0, 0, 1}, c[0]*deg)
	}
}

func rotation(axis linalg.Vec3, angle float64) linalg.Affine {
	if axis.Dot(axis) == 0 || angle == 0 {
		return linalg.IdentityAffine()
	}
	return linalg.Affine{M: linalg.QuatFromAxisAngle(axis, angle).Mat3()}
}

// bracket returns the samples of p around time t and the weight of the
// second: t = (1-w)·time(i0) + w·time(i1), w = 0 outside the samples'
// span and within a millionth of a step of a sample.
func (a *Archive) bracket(p *Property, t float64) (i0, i1 int, w float64) {
	n := p.Samples
	if n <= 1 || p.Constant() {
		return 0, 0, 0
	}
	ts := a.Samplings[p.Sampling]
	if t <= ts.Time(0) {
		return 0, 0, 0
	}
	if t >= ts.Time(n-1) {
		return n - 1, n - 1, 0
	}
	lo, hi := 0, n-1 // time(lo) < t < time(hi)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ts.Time(mid) <= t {
			lo = mid
		} else {
			hi = mid
		}
	}
	t0, t1 := ts.Time(lo), ts.Time(hi)
	if !(t1 > t0) {
		return lo, lo, 0
	}
	w = (t - t0) / (t1 - t0)
	switch {
	case w < 1e-6:
		return lo, lo, 0
	case w > 1-1e-6:
		return hi, hi, 0
	}
	return lo, hi, w
}
