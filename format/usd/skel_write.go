package usd

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// jointPaths returns every joint's path token, its ancestors' identifiers
// joined by '/' ("hips/spine/neck"): UsdSkel reads the hierarchy from
// these paths. Identifiers are unique among siblings, so paths are unique.
func jointPaths(s *rig.Skeleton) []string {
	paths := make([]string, s.Len())
	scope := make([]namer, s.Len()+1) // scope[p+1]: names under joint p
	for j, jt := range s.Joints {
		p := int(jt.Parent)
		if scope[p+1] == nil {
			scope[p+1] = namer{}
		}
		id := scope[p+1].name(jt.Name, "joint")
		if jt.Parent == rig.NoParent {
			paths[j] = id
		} else {
			paths[j] = paths[p] + "/" + id
		}
	}
	return paths
}

// tokenArray appends a token[] literal.
func tokenArray(b []byte, v []string) []byte {
	b = append(b, '[')
	for k, s := range v {
		if k > 0 {
			b = append(b, ", "...)
		}
		b = append(b, quote(s)...)
	}
	return append(b, ']')
}

// writeSkeleton writes the Skeleton: joints as paths, jointNames as the
// rig names them, bindTransforms (each joint's rest transform in the
// skeleton's space: a translation to its head, since meshrig's joints
// rest unrotated) and restTransforms (the same relative to the parent:
// a translation by the rest offset).
func writeSkeleton(e *enc, r *rig.Rig, paths []string) {
	s := &r.Skeleton
	e.line("def Skeleton " + quote(skelName) + " (")
	e.line(`    prepend apiSchemas = ["SkelBindingAPI"]`)
	e.line(")")
	e.open("")
	e.begin()
	e.buf = append(e.buf, "uniform token[] joints = "...)
	e.buf = tokenArray(e.buf, paths)
	e.end()
	names := make([]string, s.Len())
	for j, jt := range s.Joints {
		names[j] = jt.Name
	}
	e.begin()
	e.buf = append(e.buf, "uniform token[] jointNames = "...)
	e.buf = tokenArray(e.buf, names)
	e.end()
	id := linalg.Identity3()
	for _, what := range []string{"bindTransforms", "restTransforms"} {
		e.begin()
		e.buf = append(e.buf, "uniform matrix4d[] "...)
		e.buf = append(e.buf, what...)
		e.buf = append(e.buf, " = ["...)
		for j := range s.Joints {
			if j > 0 {
				e.buf = append(e.buf, ", "...)
			}
			t := s.Joints[j].Head
			if what == "restTransforms" {
				t = s.Offset(rig.JointID(j))
			}
			e.buf = matrix(e.buf, [3][3]float64(id), t)
		}
		e.buf = append(e.buf, ']')
		e.end()
	}
	if len(r.Clips) > 0 {
		e.line("rel skel:animationSource = </" + rootName + "/" + animScope + "/" + clipIDs(r)[0] + ">")
	}
	e.close()
}

// clipIDs returns the prim name of every clip's SkelAnimation.
func clipIDs(r *rig.Rig) []string {
	n := namer{}
	ids := make([]string, len(r.Clips))
	for k, c := range r.Clips {
		ids[k] = n.name(c.Name, "clip")
	}
	return ids
}

// writeAnimations writes one SkelAnimation per clip under a Scope. Each
// animates every joint: rotations (quatf, real part first) and
// translations (float3) sampled at every frame, scales (half3) sampled
// too when the clip has scale tracks (rig.Clip.Scale; a half keeps about
// three significant digits), else constant 1. Frame f of a clip is at time code f·T/fps, T the stage's
// timeCodesPerSecond (the first clip's rate), so every clip starts at
// time 0 and plays at its own rate; customData keeps the clip's name and
// rate as the rig has them.
func writeAnimations(e *enc, r *rig.Rig, paths []string) {
	ids := clipIDs(r)
	tcps := r.Clips[0].FPS
	n := r.Skeleton.Len()
	e.line("def Scope " + quote(animScope))
	e.open("")
	for k := range r.Clips {
		c := &r.Clips[k]
		if k > 0 {
			e.line("")
		}
		e.line("def SkelAnimation " + quote(ids[k]) + " (")
		e.line("    customData = {")
		e.line("        double fps = " + string(f64(nil, c.FPS)))
		e.line("        string name = " + quote(c.Name))
		e.line("    }")
		e.line(")")
		e.open("")
		e.begin()
		e.buf = append(e.buf, "uniform token[] joints = "...)
		e.buf = tokenArray(e.buf, paths)
		e.end()
		e.timeSamples("quatf[] rotations", c, tcps, func(b []byte, f, j int) []byte {
			q := c.Rotation[f*n+j]
			return tuple(b, q.W, q.X, q.Y, q.Z)
		})
		e.timeSamples("float3[] translations", c, tcps, func(b []byte, f, j int) []byte {
			t := c.Translation[f*n+j]
			return tuple(b, t[0], t[1], t[2])
		})
		if c.HasScale() {
			// Squash and stretch (--stretch): UsdSkel's scales are half3,
			// so the text holds the values a half rounds them to, the
			// same as the binary layer.
			e.timeSamples("half3[] scales", c, tcps, func(b []byte, f, j int) []byte {
				s := c.ScaleAt(f, j, n)
				return tuple(b, halfScale(s[0]), halfScale(s[1]), halfScale(s[2]))
			})
		} else {
			e.begin()
			e.buf = append(e.buf, "half3[] scales = ["...)
			for j := 0; j < n; j++ {
				if j > 0 {
					e.buf = append(e.buf, ", "...)
				}
				e.buf = append(e.buf, "(1, 1, 1)"...)
			}
			e.buf = append(e.buf, ']')
			e.end()
		}
		e.close()
	}
	e.close()
}

// timeSamples writes decl's time samples, one line per frame of c, each
// an array of value(f, j) over the joints.
func (e *enc) timeSamples(decl string, c *rig.Clip, tcps float64, value func(b []byte, f, j int) []byte) {
	n := len(c.Rotation) / max(c.Frames, 1)
	e.line(decl + ".timeSamples = {")
	e.indent++
	for f := 0; f < c.Frames; f++ {
		e.begin()
		e.buf = f64(e.buf, timeCode(f, c.FPS, tcps))
		e.buf = append(e.buf, ": ["...)
		for j := 0; j < n; j++ {
			if j > 0 {
				e.buf = append(e.buf, ", "...)
			}
			e.buf = value(e.buf, f, j)
		}
		e.buf = append(e.buf, "],"...)
		e.end()
	}
	e.indent--
	e.line("}")
}

// tuple appends (v0, v1, …) with each value rounded to float32.
func tuple(b []byte, v ...float64) []byte {
	b = append(b, '(')
	for k, x := range v {
		if k > 0 {
			b = append(b, ", "...)
		}
		b = f32(b, x)
	}
	return append(b, ')')
}

// halfScale is scale x as a half holds it, kept within a half's normal
// range [2⁻¹⁴, 65504] so a valid scale stays finite and positive (a rig
// may hold any; --stretch keeps them within [0.01, 100]).
func halfScale(x float64) float64 {
	return halfTo(half(min(max(x, 0x1p-14), 65504)))
}
