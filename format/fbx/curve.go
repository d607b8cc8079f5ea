package fbx

import (
	"sort"
)

// Key interpolation flags (KeyAttrFlags).
const (
	interpConstant = 0x2
	interpLinear   = 0x4
	interpCubic    = 0x8
	tangentUser    = 0x400
	tangentBreak   = 0x800
	constantNext   = 0x100
)

// Curve is an AnimationCurve: keys at KeyTime (FBX ticks) with values,
// each key's interpolation to the next and, for cubic keys with user
// tangents, its slopes.
type Curve struct {
	Default float64
	Times   []int64
	Values  []float64
	// Flags is each key's KeyAttrFlags; Right and NextLeft its slopes
	// (per second) for cubic interpolation.
	Flags           []int32
	Right, NextLeft []float64
}

// readCurve reads an AnimationCurve object.
func readCurve(o *Object) (*Curve, error) {
	n := o.Node
	c := &Curve{}
	if d := n.Child("Default"); d != nil && len(d.Props) == 1 && (d.Props[0].Type == 'D' || d.Props[0].Type == 'F') {
		c.Default = d.Props[0].Float
	}
	if n.Child("KeyTime") == nil {
		return c, nil
	}
	tc := n.Child("KeyTime")
	if len(tc.Props) != 1 || tc.Props[0].Type != 'l' {
		return nil, errAt(tc.Offset, "animation curve %d: KeyTime wants an int64 array", o.ID)
	}
	c.Times = tc.Props[0].I64
	var err error
	if c.Values, err = floatArray(n, "KeyValueFloat", o); err != nil {
		return nil, err
	}
	if len(c.Values) != len(c.Times) {
		return nil, errAt(tc.Offset, "animation curve %d: %d key times, %d values", o.ID, len(c.Times), len(c.Values))
	}
	for k := 1; k < len(c.Times); k++ {
		if c.Times[k] <= c.Times[k-1] {
			return nil, errAt(tc.Offset, "animation curve %d: key times not increasing at key %d", o.ID, k+1)
		}
	}
	for k, v := range c.Values {
		if v != v || v > 1e300 || v < -1e300 {
			return nil, errAt(tc.Offset, "animation curve %d: key %d is not finite", o.ID, k+1)
		}
	}
	// Attribute sets: flags and data of set s cover the next RefCount[s] keys.
	nk := len(c.Times)
	c.Flags = make([]int32, nk)
	c.Right, c.NextLeft = make([]float64, nk), make([]float64, nk)
	for k := range c.Flags {
		c.Flags[k] = interpLinear
	}
	if n.Child("KeyAttrFlags") == nil {
		return c, nil
	}
	flags, err := intArray(n, "KeyAttrFlags", o)
	if err != nil {
		return nil, err
	}
	refs, err := intArray(n, "KeyAttrRefCount", o)
	if err != nil {
		return nil, err
	}
	data, _ := floatArray(n, "KeyAttrDataFloat", o)
	if len(refs) != len(flags) {
		return nil, errAt(n.Child("KeyAttrRefCount").Offset, "animation curve %d: %d attribute counts for %d flag sets", o.ID, len(refs), len(flags))
	}
	k := 0
	for s, r := range refs {
		if r < 0 || int(r) > nk-k {
			return nil, errAt(n.Child("KeyAttrRefCount").Offset, "animation curve %d: attribute set %d covers %d keys, %d remain", o.ID, s+1, r, nk-k)
		}
		for i := 0; i < int(r); i++ {
			c.Flags[k] = flags[s]
			if 4*s+1 < len(data) {
				c.Right[k], c.NextLeft[k] = data[4*s], data[4*s+1]
			}
			k++
		}
	}
	return c, nil
}

// Eval returns the curve's value at time t (ticks): the first or last
// key's value outside the keys, Default without keys. Cubic keys with
// user or broken tangents use their stored slopes; automatic tangents are
// taken as the central differences of the neighbouring keys (the FBX
// SDK's own auto tangents differ slightly between keys; at key times
// every mode gives the key's value).
func (c *Curve) Eval(t int64) float64 {
	n := len(c.Times)
	switch {
	case n == 0:
		return c.Default
	case t <= c.Times[0]:
		return c.Values[0]
	case t >= c.Times[n-1]:
		return c.Values[n-1]
	}
	k := sort.Search(n, func(i int) bool { return c.Times[i] > t }) - 1
	t0, t1 := c.Times[k], c.Times[k+1]
	v0, v1 := c.Values[k], c.Values[k+1]
	if t == t0 {
		return v0
	}
	u := float64(t-t0) / float64(t1-t0)
	fl := c.Flags[k]
	switch {
	case fl&interpConstant != 0:
		if fl&constantNext != 0 {
			return v1
		}
		return v0
	case fl&interpCubic != 0:
		dt := float64(t1-t0) / Ticks
		m0, m1 := c.Right[k], c.NextLeft[k]
		if fl&(tangentUser|tangentBreak) == 0 {
			m0, m1 = c.slope(k), c.slope(k+1)
		}
		u2, u3 := u*u, u*u*u
		return (2*u3-3*u2+1)*v0 + (u3-2*u2+u)*dt*m0 + (-2*u3+3*u2)*v1 + (u3-u2)*dt*m1
	}
	return v0 + (v1-v0)*u
}

// slope is the central difference at key k, per second.
func (c *Curve) slope(k int) float64 {
	a, b := max(k-1, 0), min(k+1, len(c.Times)-1)
	if a == b {
		return 0
	}
	return (c.Values[b] - c.Values[a]) / (float64(c.Times[b]-c.Times[a]) / Ticks)
}
