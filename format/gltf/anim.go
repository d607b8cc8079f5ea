package gltf

import (
	"fmt"
	"math"
	"sort"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/linalg"
)

// channel is one animated property of one node.
type channel struct {
	node   int
	path   gltflib.TRSProperty
	interp gltflib.Interpolation
	times  []float64
	// values holds ncomp numbers per key; CUBICSPLINE keys hold three
	// groups: in-tangent, value, out-tangent.
	values []float64
	ncomp  int
}

// clip is one animation.
type clip struct {
	name     string
	channels []channel
	t0, t1   float64
}

// readClips reads every animation's channels, checking their sizes.
// morphs[node] is the morph-target count of the node's mesh.
func readClips(doc *gltflib.Document, morphs []int) ([]clip, error) {
	var out []clip
	names := map[string]bool{}
	for a, an := range doc.Animations {
		if an == nil {
			return nil, fmt.Errorf("animation %d is null", a)
		}
		c := clip{name: an.Name, t0: math.Inf(1), t1: math.Inf(-1)}
		if c.name == "" {
			c.name = fmt.Sprintf("clip_%d", a)
		}
		// Writers name clips by their names, so they stay apart.
		for k, base := 2, c.name; names[c.name]; k++ {
			c.name = fmt.Sprintf("%s_%d", base, k)
		}
		names[c.name] = true
		for k, ch := range an.Channels {
			if ch == nil || ch.Target.Node == nil {
				continue // targets no node (extensions): nothing to play
			}
			node := *ch.Target.Node
			if node < 0 || node >= len(doc.Nodes) {
				return nil, fmt.Errorf("animation %q channel %d: node %d does not exist", c.name, k, node)
			}
			if ch.Sampler < 0 || ch.Sampler >= len(an.Samplers) || an.Samplers[ch.Sampler] == nil {
				return nil, fmt.Errorf("animation %q channel %d: sampler %d does not exist", c.name, k, ch.Sampler)
			}
			s := an.Samplers[ch.Sampler]
			times, tc, err := accessor(doc, s.Input)
			if err != nil {
				return nil, fmt.Errorf("animation %q channel %d input: %w", c.name, k, err)
			}
			vals, vc, err := accessor(doc, s.Output)
			if err != nil {
				return nil, fmt.Errorf("animation %q channel %d output: %w", c.name, k, err)
			}
			if tc != 1 || len(times) == 0 {
				return nil, fmt.Errorf("animation %q channel %d: no key times", c.name, k)
			}
			for i := 1; i < len(times); i++ {
				if times[i] < times[i-1] {
					return nil, fmt.Errorf("animation %q channel %d: key times decrease", c.name, k)
				}
			}
			ncomp := vc
			switch ch.Target.Path {
			case gltflib.TRSTranslation, gltflib.TRSScale:
				if vc != 3 {
					return nil, fmt.Errorf("animation %q channel %d: %s output has %d components", c.name, k, ch.Target.Path, vc)
				}
			case gltflib.TRSRotation:
				if vc != 4 {
					return nil, fmt.Errorf("animation %q channel %d: rotation output has %d components", c.name, k, vc)
				}
			case gltflib.TRSWeights:
				ncomp = morphs[node]
				if ncomp == 0 {
					continue
				}
			default:
				continue
			}
			per := 1
			if s.Interpolation == gltflib.InterpolationCubicSpline {
				per = 3
			}
			if len(vals) != len(times)*ncomp*per {
				return nil, fmt.Errorf("animation %q channel %d: %d output values for %d keys × %d", c.name, k, len(vals), len(times), ncomp*per)
			}
			c.channels = append(c.channels, channel{node: node, path: ch.Target.Path, interp: s.Interpolation, times: times, values: vals, ncomp: ncomp})
			c.t0 = math.Min(c.t0, times[0])
			c.t1 = math.Max(c.t1, times[len(times)-1])
		}
		if len(c.channels) > 0 {
			out = append(out, c)
		}
	}
	return out, nil
}

// sample evaluates the channel at time t into out (ncomp values).
func (ch *channel) sample(t float64, out []float64) {
	n := ch.ncomp
	times := ch.times
	cubic := ch.interp == gltflib.InterpolationCubicSpline
	key := func(k int) []float64 {
		if cubic {
			return ch.values[(3*k+1)*n : (3*k+2)*n]
		}
		return ch.values[k*n : (k+1)*n]
	}
	if t <= times[0] || len(times) == 1 {
		copy(out, key(0))
		return
	}
	last := len(times) - 1
	if t >= times[last] {
		copy(out, key(last))
		return
	}
	k := sort.SearchFloat64s(times, t)
	if times[k] == t {
		copy(out, key(k))
		return
	}
	k-- // times[k] < t < times[k+1]
	dt := times[k+1] - times[k]
	u := (t - times[k]) / dt
	switch ch.interp {
	case gltflib.InterpolationStep:
		copy(out, key(k))
	case gltflib.InterpolationCubicSpline:
		// Hermite: p(u) = (2u³−3u²+1)v_k + (u³−2u²+u)dt·b_k + (−2u³+3u²)v_{k+1} + (u³−u²)dt·a_{k+1}.
		u2, u3 := u*u, u*u*u
		h00, h10, h01, h11 := 2*u3-3*u2+1, u3-2*u2+u, -2*u3+3*u2, u3-u2
		vk, bk := ch.values[(3*k+1)*n:(3*k+2)*n], ch.values[(3*k+2)*n:(3*k+3)*n]
		vk1, ak1 := ch.values[(3*(k+1)+1)*n:(3*(k+1)+2)*n], ch.values[3*(k+1)*n:(3*(k+1)+1)*n]
		for i := 0; i < n; i++ {
			out[i] = h00*vk[i] + h10*dt*bk[i] + h01*vk1[i] + h11*dt*ak1[i]
		}
		if ch.path == gltflib.TRSRotation {
			normalize4(out)
		}
	default: // LINEAR
		a, b := key(k), key(k+1)
		if ch.path == gltflib.TRSRotation {
			q := linalg.Slerp(quat(a), quat(b), u)
			out[0], out[1], out[2], out[3] = q.X, q.Y, q.Z, q.W
			return
		}
		for i := 0; i < n; i++ {
			out[i] = a[i] + u*(b[i]-a[i])
		}
	}
}

// quat reads glTF's (x, y, z, w) as a unit quaternion.
func quat(v []float64) linalg.Quat {
	return linalg.Quat{W: v[3], X: v[0], Y: v[1], Z: v[2]}.Normalize()
}

func normalize4(v []float64) {
	q := quat(v)
	v[0], v[1], v[2], v[3] = q.X, q.Y, q.Z, q.W
}

// niceRate rounds a rate derived from float32 key times (23.99999944) to
// the value it was written from when that is within 1e-5.
func niceRate(fps float64) float64 {
	r := math.Round(fps*1000) / 1000
	if math.Abs(r-fps) <= 1e-5*fps {
		return r
	}
	return fps
}
