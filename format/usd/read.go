package usd

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
)

// maxLayer bounds the text Read takes in, 1 GiB.
const maxLayer = 1 << 30

// Read reads a rig from a .usda layer laid out as Write lays it out: the
// defaultPrim SkelRoot with its Skeleton (joint paths, jointNames, bind
// transforms without rotation, as meshrig's joints rest), the
// SkelAnimations under its Animations scope (rotations and translations
// sampled per frame over the Skeleton's joints, unit scales), and the
// skinned Mesh with up to four influences per point and its normals, UV
// sets and parts. It is not a general USD reader: what it does not
// expect is an error naming its line, as is any syntax outside the
// subset written.
func Read(r io.Reader) (*rig.Rig, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxLayer+1))
	if err != nil {
		return nil, err
	}
	if len(src) > maxLayer {
		return nil, fmt.Errorf("usd: layer larger than %d bytes", maxLayer)
	}
	ly, err := parseLayer(string(src))
	if err == nil {
		var out *rig.Rig
		if out, err = build(ly); err == nil {
			return out, nil
		}
	}
	var at *errAt
	if errors.As(err, &at) {
		return nil, &format.ParseError{Line: at.line, Offset: -1, Err: errors.New(at.msg)}
	}
	return nil, err
}

// build turns the parsed layer into a rig.
func build(ly *layer) (*rig.Rig, error) {
	name := rootName
	if v, ok := ly.meta["defaultPrim"]; ok && v.kind == vString {
		name = v.str
	}
	var root *prim
	for _, p := range ly.prims {
		if p.name == name {
			root = p
		}
	}
	if root == nil {
		return nil, failf(1, "no prim %q (the layer's defaultPrim)", name)
	}
	if root.typ != "SkelRoot" {
		return nil, failf(root.line, "prim %q is a %q, want a SkelRoot", root.name, root.typ)
	}
	var skel, body *prim
	for _, c := range root.children {
		switch c.typ {
		case "Skeleton":
			if skel != nil {
				return nil, failf(c.line, "a second Skeleton %q (meshrig writes one)", c.name)
			}
			skel = c
		case "Mesh":
			if body != nil {
				return nil, failf(c.line, "a second Mesh %q (meshrig writes one)", c.name)
			}
			body = c
		}
	}
	if skel == nil || body == nil {
		return nil, failf(root.line, "SkelRoot %q needs a Skeleton and a Mesh", root.name)
	}
	out := &rig.Rig{}
	paths, err := readSkeleton(skel, &out.Skeleton)
	if err != nil {
		return nil, err
	}
	tcps := 24.0 // USD's default time codes per second
	if v, ok := ly.meta["timeCodesPerSecond"]; ok {
		if v.kind != vNumber || !(v.num > 0) || math.IsInf(v.num, 0) {
			return nil, failf(v.line, "timeCodesPerSecond must be a positive number")
		}
		tcps = v.num
	}
	if anims := root.child(animScope); anims != nil {
		for _, a := range anims.children {
			if a.typ != "SkelAnimation" {
				continue
			}
			c, err := readAnimation(a, paths, &out.Skeleton, tcps)
			if err != nil {
				return nil, err
			}
			out.Clips = append(out.Clips, c)
		}
	}
	if out.Mesh, out.Skin, err = readMesh(body, root, out.Skeleton.Len()); err != nil {
		return nil, err
	}
	if err := out.Validate(); err != nil {
		return nil, failf(root.line, "the rig read is not valid: %v", err)
	}
	return out, nil
}

// attr returns p's property name holding a value of type typ (an array
// of numbers when the type ends in []), or an error naming what is wrong.
func attr(p *prim, name, typ string, required bool) (*prop, error) {
	a := p.props[name]
	if a == nil || a.val == nil {
		if required {
			return nil, failf(p.line, "%s %q has no %s", p.typ, p.name, name)
		}
		return nil, nil
	}
	if a.typ != typ {
		return nil, failf(a.line, "%s is a %s, want %s", name, a.typ, typ)
	}
	return a, nil
}

// numbers returns a's value as numeric elements of width w (any count
// when n < 0, else exactly n elements).
func numbers(a *prop, v *value, w, n int) ([]float64, error) {
	if v.kind != vNumbers || (len(v.nums) > 0 && v.width != w) {
		return nil, failf(v.line, "%s: expected an array of %s", a.name, elems(w))
	}
	if n >= 0 && len(v.nums) != n*w {
		return nil, failf(v.line, "%s has %d values, want %d", a.name, len(v.nums)/w, n)
	}
	return v.nums, nil
}

func elems(w int) string {
	if w == 1 {
		return "numbers"
	}
	return fmt.Sprintf("%d-tuples", w)
}

// tokens returns a's value as a list of strings.
func tokens(a *prop) ([]string, error) {
	v := a.val
	switch {
	case v.kind == vNumbers && len(v.nums) == 0:
		return nil, nil
	case v.kind != vList:
		return nil, failf(v.line, "%s: expected a list of strings", a.name)
	}
	out := make([]string, len(v.items))
	for k, e := range v.items {
		if e.kind != vString {
			return nil, failf(e.line, "%s: item %d is not a string", a.name, k+1)
		}
		out[k] = e.str
	}
	return out, nil
}
