package skinning

import (
	"math"
	"runtime"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/seq"
)

// Model is the state of an example-based rigging run, in unit-sphere
// units (method.UnitSphere): rest and posed positions, B bones with a
// rigid transform per frame, and up to MaxK weighted bones per vertex.
type Model struct {
	N, F int
	// Rest holds the N rest positions.
	Rest []linalg.Vec3
	// Frames holds F·N posed positions, vertex i of frame f at f*N+i;
	// nil in a model made by View, which reads them from its sequence
	// (Pos, FrameInto, Frame).
	Frames []linalg.Vec3
	// Top is the rest mesh's connectivity.
	Top *mesh.Topology

	// B is the bone count; M holds F·B bone transforms, frame f bone j at
	// f*B+j, each mapping rest positions to frame f.
	B int
	M []linalg.Affine

	// Weights: vertex i's slots k < MaxK at WB/WW[i*MaxK+k]; bone -1
	// marks an empty slot (weight 0).
	WB []int32
	WW []float64

	src *frameSource // where a View reads its frames
}

// frameSource is a sequence's frames as a View reads them: vertex i of
// frame f is pos[f*n+of[i]] (pos[f*n+i] when of is nil), mapped into the
// unit sphere by us when read.
type frameSource struct {
	pos []linalg.Vec3f
	n   int
	of  []int32
	us  method.UnitSphere
}

// View returns the model of s's vertices in the unit sphere us without
// copying s's frames: they are mapped when read (the same numbers us.To
// gives for s.FrameInto), which saves 24 bytes per vertex and frame. s
// must not change while the model is in use; Frames stays nil.
func View(s *seq.Sequence, us method.UnitSphere) *Model {
	return &Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), src: &frameSource{pos: s.Frames, n: s.N(), us: us}}
}

// Pos returns vertex i at frame f.
func (p *Model) Pos(f, i int) linalg.Vec3 {
	src := p.src
	if src == nil {
		return p.Frames[f*p.N+i]
	}
	if src.of != nil {
		i = int(src.of[i])
	}
	return src.pos[f*src.n+i].Vec3().Sub(src.us.Center).Scale(src.us.Scale)
}

// FrameInto returns the N positions of frame f: a view into Frames, or,
// in a model made by View, dst filled with them (allocated when short).
// Keep the result as the next call's dst to reuse it.
func (p *Model) FrameInto(dst []linalg.Vec3, f int) []linalg.Vec3 {
	src := p.src
	if src == nil {
		return p.Frames[f*p.N : (f+1)*p.N]
	}
	if cap(dst) < p.N {
		dst = make([]linalg.Vec3, p.N)
	}
	dst = dst[:p.N]
	fr := src.pos[f*src.n : (f+1)*src.n]
	c, sc := src.us.Center, src.us.Scale
	if src.of == nil {
		for i := range dst {
			dst[i] = fr[i].Vec3().Sub(c).Scale(sc)
		}
	} else {
		for i, k := range src.of {
			dst[i] = fr[k].Vec3().Sub(c).Scale(sc)
		}
	}
	return dst
}

// scratch holds the scratch space of one parallel loop over the frames
// (a frame of a View, a solver's system), one per worker at most, reused
// from chunk to chunk.
type scratch[T any] chan T

func newScratch[T any]() scratch[T] { return make(scratch[T], runtime.GOMAXPROCS(0)) }

// get returns a kept scratch, or T's zero value (FrameInto then allocates
// a frame).
func (s scratch[T]) get() T {
	select {
	case b := <-s:
		return b
	default:
		var zero T
		return zero
	}
}

// put keeps b for the next chunk.
func (s scratch[T]) put(b T) {
	select {
	case s <- b:
	default:
	}
}

// MaxK is the most influences a vertex keeps.
const MaxK = 4

// Frame returns the N positions of frame f: a view into Frames, or a new
// slice in a model made by View (loops over frames use FrameInto).
func (p *Model) Frame(f int) []linalg.Vec3 { return p.FrameInto(nil, f) }

// SetRigidWeights gives every vertex all its weight on one bone.
func (p *Model) SetRigidWeights(label []int32) {
	p.WB = make([]int32, p.N*MaxK)
	p.WW = make([]float64, p.N*MaxK)
	for i, l := range label {
		p.WB[i*MaxK] = l
		p.WW[i*MaxK] = 1
		for k := 1; k < MaxK; k++ {
			p.WB[i*MaxK+k] = -1
		}
	}
}

// Reconstruct returns vertex i at frame f under the current weights and
// transforms.
func (p *Model) Reconstruct(i, f int) linalg.Vec3 {
	var v linalg.Vec3
	u := p.Rest[i]
	for k := 0; k < MaxK; k++ {
		j := p.WB[i*MaxK+k]
		if j < 0 {
			continue
		}
		v = v.Add(p.M[f*p.B+int(j)].Apply(u).Scale(p.WW[i*MaxK+k]))
	}
	return v
}

// BoneMass returns Σ_i w_ij² for every bone j (the quantity of Eq. 11).
func (p *Model) BoneMass() []float64 {
	mass := make([]float64, p.B)
	for i := 0; i < p.N*MaxK; i++ {
		if j := p.WB[i]; j >= 0 {
			mass[j] += p.WW[i] * p.WW[i]
		}
	}
	return mass
}

// BoneCentroids returns each bone's weighted rest centroid.
func (p *Model) BoneCentroids() []linalg.Vec3 {
	c := make([]linalg.Vec3, p.B)
	mass := make([]float64, p.B)
	for i := 0; i < p.N; i++ {
		for k := 0; k < MaxK; k++ {
			if j := p.WB[i*MaxK+k]; j >= 0 {
				w := p.WW[i*MaxK+k]
				c[j] = c[j].Add(p.Rest[i].Scale(w))
				mass[j] += w
			}
		}
	}
	for j := range c {
		if mass[j] > 0 {
			c[j] = c[j].Scale(1 / mass[j])
		}
	}
	return c
}

// NormalizeSlots rescales the weights to sum to one, dropping round-off
// negatives.
func NormalizeSlots(wb []int32, ww []float64) {
	var sum float64
	for a := range ww {
		if ww[a] <= 0 || math.IsNaN(ww[a]) {
			wb[a], ww[a] = -1, 0
		}
		sum += ww[a]
	}
	if sum == 0 {
		return
	}
	for a := range ww {
		ww[a] /= sum
	}
}
