package ledeng

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// maxK is the most influences a vertex keeps.
const maxK = 4

// problem is the state of one run, in unit-sphere units.
type problem struct {
	n, f int
	rest []linalg.Vec3 // N rest positions
	// frames holds F·N posed positions, vertex i of frame f at f*n+i.
	frames []linalg.Vec3
	top    *mesh.Topology

	b int             // bone count
	m []linalg.Affine // F·B bone transforms, frame f bone j at f*b+j

	// Weights: vertex i's slots k < maxK at i*maxK+k; bone -1 marks an
	// empty slot (weight 0).
	wb []int32
	ww []float64
}

func (p *problem) frame(f int) []linalg.Vec3 { return p.frames[f*p.n : (f+1)*p.n] }

// setRigidWeights gives every vertex all its weight on one bone.
func (p *problem) setRigidWeights(label []int32) {
	p.wb = make([]int32, p.n*maxK)
	p.ww = make([]float64, p.n*maxK)
	for i, l := range label {
		p.wb[i*maxK] = l
		p.ww[i*maxK] = 1
		for k := 1; k < maxK; k++ {
			p.wb[i*maxK+k] = -1
		}
	}
}

// reconstruct returns vertex i at frame f under the current weights and
// transforms.
func (p *problem) reconstruct(i, f int) linalg.Vec3 {
	var v linalg.Vec3
	u := p.rest[i]
	for k := 0; k < maxK; k++ {
		j := p.wb[i*maxK+k]
		if j < 0 {
			continue
		}
		v = v.Add(p.m[f*p.b+int(j)].Apply(u).Scale(p.ww[i*maxK+k]))
	}
	return v
}
