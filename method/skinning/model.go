package skinning

import (
	"github.com/meshrig/meshrig/internal/par"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// Model is the state of an example-based rigging run, in unit-sphere
// units (method.UnitSphere): rest and posed positions, B bones with a
// rigid transform per frame, and up to MaxK weighted bones per vertex.
type Model struct {
	N, F int
	// Rest holds the N rest positions.
	Rest []linalg.Vec3
	// Frames holds F·N posed positions, vertex i of frame f at f*N+i.
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

	byVertex []linalg.Vec3 // Frames vertex-major (vertex i frame f at i*F+f), built on first use
}

// vertexMajor makes, once, a vertex-major copy of Frames, so per-vertex
// loops over frames read memory in order. It is not safe to call from
// several goroutines at once; NewPairSums calls it before the parallel
// System calls that read the copy.
func (p *Model) vertexMajor() {
	if len(p.byVertex) == p.N*p.F {
		return
	}
	t := make([]linalg.Vec3, p.N*p.F)
	par.For(p.N, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for f := 0; f < p.F; f++ {
				t[i*p.F+f] = p.Frames[f*p.N+i]
			}
		}
	})
	p.byVertex = t
}

// MaxK is the most influences a vertex keeps.
const MaxK = 4

func (p *Model) Frame(f int) []linalg.Vec3 { return p.Frames[f*p.N : (f+1)*p.N] }

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
