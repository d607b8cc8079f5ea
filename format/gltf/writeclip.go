package gltf

import (
	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/rig"
)

// writeClip adds one animation: LINEAR samplers sharing one time accessor,
// a rotation channel for every joint, translation for the root and for any
// joint whose translation ever leaves its rest offset.
func writeClip(doc *gltflib.Document, s *rig.Skeleton, c *rig.Clip) {
	nj := s.Len()
	times := make([]float32, c.Frames)
	for f := range times {
		times[f] = float32(float64(f) / c.FPS)
	}
	input := modeler.WriteAccessor(doc, gltflib.TargetNone, times)
	acc := doc.Accessors[input]
	acc.Min = []float64{float64(times[0])}
	acc.Max = []float64{float64(times[len(times)-1])}
	anim := &gltflib.Animation{Name: c.Name}
	add := func(node int, path gltflib.TRSProperty, data any) {
		out := modeler.WriteAccessor(doc, gltflib.TargetNone, data)
		anim.Samplers = append(anim.Samplers, &gltflib.AnimationSampler{
			Input: input, Output: out, Interpolation: gltflib.InterpolationLinear,
		})
		anim.Channels = append(anim.Channels, &gltflib.AnimationChannel{
			Sampler: len(anim.Samplers) - 1,
			Target:  gltflib.AnimationChannelTarget{Node: gltflib.Index(node), Path: path},
		})
	}
	for j := 0; j < nj; j++ {
		rot := make([][4]float32, c.Frames)
		var prev [4]float32
		for f := 0; f < c.Frames; f++ {
			q := c.Rotation[f*nj+j].Normalize()
			v := [4]float32{float32(q.X), float32(q.Y), float32(q.Z), float32(q.W)}
			// Stay on prev's hemisphere so interpolation takes the short way.
			if f > 0 && v[0]*prev[0]+v[1]*prev[1]+v[2]*prev[2]+v[3]*prev[3] < 0 {
				v = [4]float32{-v[0], -v[1], -v[2], -v[3]}
			}
			rot[f], prev = v, v
		}
		add(j, gltflib.TRSRotation, rot)
		moves := s.Joints[j].Parent == rig.NoParent
		off := s.Offset(rig.JointID(j))
		for f := 0; f < c.Frames && !moves; f++ {
			moves = c.Translation[f*nj+j] != off
		}
		if moves {
			tr := make([][3]float32, c.Frames)
			for f := 0; f < c.Frames; f++ {
				t := c.Translation[f*nj+j]
				tr[f] = [3]float32{float32(t[0]), float32(t[1]), float32(t[2])}
			}
			add(j, gltflib.TRSTranslation, tr)
		}
	}
	doc.Animations = append(doc.Animations, anim)
}
