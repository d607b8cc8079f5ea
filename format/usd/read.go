package usd

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
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

// readSkeleton reads the joints: hierarchy from the paths (a parent must
// come before its children), names from jointNames (else the paths' last
// elements), heads from the bind transforms.
func readSkeleton(p *prim, s *rig.Skeleton) ([]string, error) {
	ja, err := attr(p, "joints", "token[]", true)
	if err != nil {
		return nil, err
	}
	paths, err := tokens(ja)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, failf(ja.line, "the Skeleton has no joints")
	}
	names := make([]string, len(paths))
	if na, err := attr(p, "jointNames", "token[]", false); err != nil {
		return nil, err
	} else if na != nil {
		if names, err = tokens(na); err != nil {
			return nil, err
		}
		if len(names) != len(paths) {
			return nil, failf(na.line, "jointNames has %d names for %d joints", len(names), len(paths))
		}
	} else {
		for j, q := range paths {
			names[j] = q[strings.LastIndexByte(q, '/')+1:]
		}
	}
	ba, err := attr(p, "bindTransforms", "matrix4d[]", true)
	if err != nil {
		return nil, err
	}
	bind, err := numbers(ba, ba.val, 16, len(paths))
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(paths))
	s.Joints = make([]rig.Joint, len(paths))
	for j, q := range paths {
		if _, dup := index[q]; dup || q == "" {
			return nil, failf(ja.line, "joint path %q is empty or used twice", q)
		}
		index[q] = j
		parent := rig.NoParent
		if k := strings.LastIndexByte(q, '/'); k >= 0 {
			i, ok := index[q[:k]]
			if !ok {
				return nil, failf(ja.line, "joint %q comes before its parent %q or has none", q, q[:k])
			}
			parent = rig.JointID(i)
		} else if j > 0 {
			return nil, failf(ja.line, "joint %q is a second root (the first is %q)", q, paths[0])
		}
		m := bind[16*j : 16*j+16]
		if err := restMatrix(m); err != nil {
			return nil, failf(ba.line, "bindTransforms of joint %q: %v", q, err)
		}
		s.Joints[j] = rig.Joint{Name: names[j], Parent: parent, Head: linalg.Vec3{m[12], m[13], m[14]}}
	}
	return paths, nil
}

// restMatrix checks a matrix is a translation, as meshrig's rest
// transforms are (row-vector layout: identity above, translation in the
// last row).
func restMatrix(m []float64) error {
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			want := 0.0
			if r == c {
				want = 1
			}
			if r == 3 && c < 3 {
				if math.IsNaN(m[12+c]) || math.IsInf(m[12+c], 0) {
					return fmt.Errorf("non-finite translation")
				}
				continue
			}
			if m[4*r+c] != want {
				return fmt.Errorf("rotates, scales or projects (meshrig's joints rest unrotated)")
			}
		}
	}
	return nil
}

// readAnimation reads one SkelAnimation as a clip: one frame per time
// sample, its rate and name from customData (else the stage's rate and
// the prim's name).
func readAnimation(a *prim, paths []string, s *rig.Skeleton, tcps float64) (rig.Clip, error) {
	c := rig.Clip{Name: a.name, FPS: tcps}
	if cd, ok := a.meta["customData"]; ok && cd.kind == vDict {
		if v, ok := cd.dict["name"]; ok && v.kind == vString {
			c.Name = v.str
		}
		if v, ok := cd.dict["fps"]; ok {
			if v.kind != vNumber || !(v.num > 0) || math.IsInf(v.num, 0) {
				return c, failf(v.line, "animation %q: fps must be a positive number", a.name)
			}
			c.FPS = v.num
		}
	}
	ja, err := attr(a, "joints", "token[]", true)
	if err != nil {
		return c, err
	}
	joints, err := tokens(ja)
	if err != nil {
		return c, err
	}
	if len(joints) != len(paths) {
		return c, failf(ja.line, "animation %q animates %d joints, the Skeleton has %d", a.name, len(joints), len(paths))
	}
	for k := range joints {
		if joints[k] != paths[k] {
			return c, failf(ja.line, "animation %q: joint %d is %q, the Skeleton's is %q", a.name, k+1, joints[k], paths[k])
		}
	}
	n := len(paths)
	rot, tr := a.props["rotations"], a.props["translations"]
	if rot == nil || tr == nil || rot.samples == nil || tr.samples == nil {
		return c, failf(a.line, "animation %q needs rotations and translations as time samples", a.name)
	}
	if rot.typ != "quatf[]" || tr.typ != "float3[]" {
		return c, failf(rot.line, "animation %q: rotations are %s and translations %s, want quatf[] and float3[]", a.name, rot.typ, tr.typ)
	}
	if len(rot.samples) == 0 || len(rot.samples) != len(tr.samples) {
		return c, failf(rot.line, "animation %q: %d rotation samples and %d translation samples", a.name, len(rot.samples), len(tr.samples))
	}
	if sc := a.props["scales"]; sc != nil {
		if sc.samples != nil || sc.val == nil {
			return c, failf(sc.line, "animation %q: scales vary (meshrig's rigs do not scale)", a.name)
		}
		v, err := numbers(sc, sc.val, 3, n)
		if err != nil {
			return c, err
		}
		for _, x := range v {
			if x != 1 {
				return c, failf(sc.line, "animation %q scales a joint by %v (meshrig's rigs do not scale)", a.name, x)
			}
		}
	}
	sortSamples(rot.samples)
	sortSamples(tr.samples)
	// Every sample is checked before the clip is allocated, so its size
	// is what the text holds.
	for f := range rot.samples {
		if rot.samples[f].time != tr.samples[f].time {
			return c, failf(tr.line, "animation %q: translations sampled at %v, rotations at %v", a.name, tr.samples[f].time, rot.samples[f].time)
		}
		if f > 0 && rot.samples[f].time == rot.samples[f-1].time {
			return c, failf(rot.line, "animation %q: time %v sampled twice", a.name, rot.samples[f].time)
		}
		if _, err := numbers(rot, &rot.samples[f].val, 4, n); err != nil {
			return c, err
		}
		if _, err := numbers(tr, &tr.samples[f].val, 3, n); err != nil {
			return c, err
		}
	}
	c.Frames = len(rot.samples)
	c.Rotation = make([]linalg.Quat, 0, c.Frames*n)
	c.Translation = make([]linalg.Vec3, 0, c.Frames*n)
	for f := range rot.samples {
		q, t := rot.samples[f].val.nums, tr.samples[f].val.nums
		for j := 0; j < n; j++ {
			c.Rotation = append(c.Rotation, linalg.Quat{W: q[4*j], X: q[4*j+1], Y: q[4*j+2], Z: q[4*j+3]})
			c.Translation = append(c.Translation, linalg.Vec3{t[3*j], t[3*j+1], t[3*j+2]})
		}
	}
	// quatf holds float32: normalize in float64 so FK gets a rotation.
	for k, q := range c.Rotation {
		if l := math.Sqrt(q.Dot(q)); l > 0.5 && l < 2 {
			c.Rotation[k] = q.Normalize()
		}
	}
	return c, nil
}

func sortSamples(s []sample) {
	sort.SliceStable(s, func(i, j int) bool { return s[i].time < s[j].time })
}

// readMesh reads the skinned mesh: points, faces, skinning primvars
// (elementSize at most 4), the geometry bind transform applied to the
// points, and the surface.
func readMesh(p, root *prim, joints int) (*mesh.Mesh, rig.Skin, error) {
	pa, err := attr(p, "points", "point3f[]", true)
	if err != nil {
		return nil, nil, err
	}
	pts, err := numbers(pa, pa.val, 3, -1)
	if err != nil {
		return nil, nil, err
	}
	n := len(pts) / 3
	verts := make([]linalg.Vec3, n)
	for i := range verts {
		verts[i] = linalg.Vec3{pts[3*i], pts[3*i+1], pts[3*i+2]}
	}
	if g, err := attr(p, "primvars:skel:geomBindTransform", "matrix4d", false); err != nil {
		return nil, nil, err
	} else if g != nil {
		m, err := numbers(g, g.val, 4, 4) // four rows
		if err != nil {
			return nil, nil, err
		}
		for i, v := range verts {
			// Row vector times matrix.
			verts[i] = linalg.Vec3{
				v[0]*m[0] + v[1]*m[4] + v[2]*m[8] + m[12],
				v[0]*m[1] + v[1]*m[5] + v[2]*m[9] + m[13],
				v[0]*m[2] + v[1]*m[6] + v[2]*m[10] + m[14],
			}
		}
	}
	ca, err := attr(p, "faceVertexCounts", "int[]", true)
	if err != nil {
		return nil, nil, err
	}
	counts, err := numbers(ca, ca.val, 1, -1)
	if err != nil {
		return nil, nil, err
	}
	ia, err := attr(p, "faceVertexIndices", "int[]", true)
	if err != nil {
		return nil, nil, err
	}
	idx, err := numbers(ia, ia.val, 1, -1)
	if err != nil {
		return nil, nil, err
	}
	polys := make([][]int, len(counts))
	at := 0
	for k, c := range counts {
		if c != math.Trunc(c) || c < 3 || float64(len(idx)-at) < c {
			return nil, nil, failf(ca.line, "face %d has %v vertices (need 3 or more, and %d indices remain)", k+1, c, len(idx)-at)
		}
		polys[k] = make([]int, int(c))
		for i := range polys[k] {
			v := idx[at+i]
			if v != math.Trunc(v) || v < 0 || v >= float64(n) {
				return nil, nil, failf(ia.line, "face %d: vertex index %v out of range (%d points)", k+1, v, n)
			}
			polys[k][i] = int(v)
		}
		at += int(c)
	}
	if at != len(idx) {
		return nil, nil, failf(ia.line, "faceVertexIndices has %d indices, the counts use %d", len(idx), at)
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		return nil, nil, failf(ca.line, "mesh: %v", err)
	}
	skin, err := readSkin(p, n, joints)
	if err != nil {
		return nil, nil, err
	}
	if err := readSurface(p, root, m, counts); err != nil {
		return nil, nil, err
	}
	return m, skin, nil
}

// readSkin reads the joint indices and weights, elementSize of them per
// point.
func readSkin(p *prim, n, joints int) (rig.Skin, error) {
	ia, err := attr(p, "primvars:skel:jointIndices", "int[]", true)
	if err != nil {
		return nil, err
	}
	wa, err := attr(p, "primvars:skel:jointWeights", "float[]", true)
	if err != nil {
		return nil, err
	}
	size := 1
	for _, a := range []*prop{ia, wa} {
		es, ok := a.meta["elementSize"]
		s := 1
		if ok {
			if es.kind != vNumber || es.num != math.Trunc(es.num) || es.num < 1 || es.num > rig.MaxInfluences {
				return nil, failf(a.line, "%s: elementSize must be 1 to %d", a.name, rig.MaxInfluences)
			}
			s = int(es.num)
		}
		if a == ia {
			size = s
		} else if s != size {
			return nil, failf(a.line, "jointIndices have elementSize %d, jointWeights %d", size, s)
		}
		if in, ok := a.meta["interpolation"]; ok && (in.kind != vString || in.str != "vertex") {
			return nil, failf(a.line, "%s: interpolation must be \"vertex\"", a.name)
		}
	}
	idx, err := numbers(ia, ia.val, 1, n*size)
	if err != nil {
		return nil, err
	}
	w, err := numbers(wa, wa.val, 1, n*size)
	if err != nil {
		return nil, err
	}
	skin := make(rig.Skin, n)
	for i := range skin {
		for k := 0; k < size; k++ {
			j := idx[i*size+k]
			if j != math.Trunc(j) || j < 0 || j >= float64(joints) {
				return nil, failf(ia.line, "point %d: joint index %v out of range (%d joints)", i+1, j, joints)
			}
			skin[i].Joint[k] = rig.JointID(j)
			skin[i].Weight[k] = w[i*size+k]
		}
	}
	return skin, nil
}
