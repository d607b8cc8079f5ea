package usd

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

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
	// Scales: constant 1 (a rotation-only clip), else scale tracks
	// (rig.Clip.Scale), constant or sampled with the rotations.
	var scales []float64 // constant, n·3
	sc := a.props["scales"]
	if sc != nil && sc.samples == nil {
		if sc.val == nil {
			return c, failf(sc.line, "animation %q: scales have neither a value nor time samples", a.name)
		}
		v, err := numbers(sc, sc.val, 3, n)
		if err != nil {
			return c, err
		}
		if err := positive(sc, a.name, v); err != nil {
			return c, err
		}
		for _, x := range v {
			if x != 1 {
				scales = v
				break
			}
		}
		sc = nil
	}
	if sc != nil {
		if len(sc.samples) != len(rot.samples) {
			return c, failf(sc.line, "animation %q: %d scale samples and %d rotation samples", a.name, len(sc.samples), len(rot.samples))
		}
		sortSamples(sc.samples)
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
		if sc != nil {
			if sc.samples[f].time != rot.samples[f].time {
				return c, failf(sc.line, "animation %q: scales sampled at %v, rotations at %v", a.name, sc.samples[f].time, rot.samples[f].time)
			}
			v, err := numbers(sc, &sc.samples[f].val, 3, n)
			if err != nil {
				return c, err
			}
			if err := positive(sc, a.name, v); err != nil {
				return c, err
			}
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
	if sc != nil || scales != nil {
		c.Scale = make([]linalg.Vec3, 0, c.Frames*n)
		for f := 0; f < c.Frames; f++ {
			s := scales
			if sc != nil {
				s = sc.samples[f].val.nums
			}
			for j := 0; j < n; j++ {
				c.Scale = append(c.Scale, linalg.Vec3{s[3*j], s[3*j+1], s[3*j+2]})
			}
		}
		if !slices.ContainsFunc(c.Scale, func(v linalg.Vec3) bool { return v != linalg.Vec3{1, 1, 1} }) {
			c.Scale = nil // sampled, but 1 throughout: a rotation-only clip
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

// positive refuses a scale that is not finite and positive: it would
// collapse or mirror a bone.
func positive(p *prop, anim string, v []float64) error {
	for _, x := range v {
		if !(x > 0) || math.IsInf(x, 0) {
			return failf(p.line, "animation %q scales a joint by %v (scales must be finite and positive)", anim, x)
		}
	}
	return nil
}
