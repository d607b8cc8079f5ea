package gltf

import (
	"fmt"
	"math"

	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/rig"
)

// writeClip adds one animation: LINEAR samplers sharing one time accessor,
// a rotation channel for every joint, translation for the root and for any
// joint whose translation ever leaves its rest offset, and scale for every
// joint when the clip has scale tracks (rig.Clip.Scale: glTF's T·R·S).
func writeClip(doc *gltflib.Document, s *rig.Skeleton, c *rig.Clip) error {
	nj := s.Len()
	times, err := clipTimes(c)
	if err != nil {
		return err
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
		if c.Scale != nil {
			sc := make([][3]float32, c.Frames)
			for f := 0; f < c.Frames; f++ {
				v := c.Scale[f*nj+j]
				sc[f] = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
			}
			add(j, gltflib.TRSScale, sc)
		}
	}
	doc.Animations = append(doc.Animations, anim)
	return nil
}

// clipTimes returns the clip's frame times as glTF stores them, float32,
// refusing a rate they cannot carry: glTF wants finite, strictly
// increasing key times, and a reader recovers the rate from their
// spacing, which below float32's smallest normal number (1/fps past
// about 8.5e37 fps) has lost its precision.
func clipTimes(c *rig.Clip) ([]float32, error) {
	times := make([]float32, c.Frames)
	for f := range times {
		t := float32(float64(f) / c.FPS)
		bad := math.IsInf(float64(t), 0) || (f > 0 && t <= times[f-1]) || (f == 1 && t < smallestNormal32)
		if bad {
			return nil, fmt.Errorf("clip %q: %d frames at %g fps do not fit glTF's float32 key times (frame %d at %g s)",
				c.Name, c.Frames, c.FPS, f+1, float64(f)/c.FPS)
		}
		times[f] = t
	}
	return times, nil
}

// smallestNormal32 is float32's smallest normal number, 2⁻¹²⁶.
const smallestNormal32 = 0x1p-126
