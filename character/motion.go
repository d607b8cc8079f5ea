package character

import (
	"math"
	"math/rand/v2"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// animate builds one looping clip: every joint turns about its axis by a
// sinusoid (phases jittered by the seed), the root follows rootMotion.
// Bones stay rigid: only rotations and the root translation change.
func (b *body) animate(name string, opt Options) rig.Clip {
	sk := b.skeleton()
	c := rig.NewClip(&sk, name, opt.FPS, opt.Frames)
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6d657368))
	jitter := make([]float64, len(b.bones))
	scale := make([]float64, len(b.bones))
	for j := range jitter {
		jitter[j] = 0.3 * (rng.Float64() - 0.5)
		scale[j] = 0.85 + 0.3*rng.Float64()
	}
	nj := len(b.bones)
	for f := 0; f < opt.Frames; f++ {
		u := float64(f) / float64(opt.Frames)
		for j, bn := range b.bones {
			if bn.parent < 0 {
				t, q := b.rootMotion(u)
				c.Translation[f*nj+j] = bn.head.Add(t)
				c.Rotation[f*nj+j] = q
				continue
			}
			x := 2*math.Pi*bn.cycles*u + bn.phase + jitter[j]
			wave := math.Sin(x)
			if bn.oneSided {
				wave = (1 - math.Cos(x)) / 2
			}
			angle := bn.bias + bn.amp*scale[j]*wave
			if bn.amp == 0 && bn.bias == 0 {
				continue
			}
			c.Rotation[f*nj+j] = linalg.QuatFromAxisAngle(bn.axis, angle)
		}
	}
	return c
}
