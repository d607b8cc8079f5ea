package schaefer

import (
	"slices"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
)

// TestDropUnused: a bone no vertex needs (it flies about far from the
// mesh) is dropped, the others keep their transforms, its faces go to -1
// and the weights are solved again without it.
func TestDropUnused(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 8, linalg.Vec3{}))
	us := method.NewUnitSphere(s.Rest.Verts)
	m := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.ToFrames(nil, s.Frames), Top: mesh.NewTopology(s.Rest)}
	label := make([]int32, m.N)
	for i, p := range m.Rest {
		if p[0] > 0 {
			label[i] = 1
		}
	}
	m.B = 3
	m.M = m.FitClusters(label, 3) // bone 2 has no vertex: fitted to nothing
	for f := 0; f < m.F; f++ {
		q := linalg.QuatFromAxisAngle(linalg.Vec3{1, 2, 3}.Unit(), float64(f))
		m.M[f*3+2] = linalg.Affine{M: q.Mat3(), T: linalg.Vec3{9, float64(f), -9}}
	}
	kept := [][]linalg.Affine{}
	for f := 0; f < m.F; f++ {
		kept = append(kept, slices.Clone(m.M[f*3:f*3+2]))
	}
	solveWeights(m, nil, 4)
	allowed := influenceMaps(m)
	solveWeights(m, allowed, 4)
	faceBone := make([]int32, len(s.Rest.Tris))
	for t := range faceBone {
		faceBone[t] = int32(t % 3)
	}
	allowed = dropUnused(m, faceBone, allowed, 4)
	if m.B != 2 || len(m.M) != 2*m.F || len(allowed) != m.N {
		t.Fatalf("%d bones, %d transforms, %d influence maps", m.B, len(m.M), len(allowed))
	}
	for f := 0; f < m.F; f++ {
		if !slices.Equal(m.M[f*2:f*2+2], kept[f]) {
			t.Fatalf("frame %d: the kept bones' transforms changed", f)
		}
	}
	for t2, j := range faceBone {
		if want := [3]int32{0, 1, -1}[t2%3]; j != want {
			t.Fatalf("face %d on bone %d, want %d", t2, j, want)
		}
	}
	for i, j := range m.WB {
		if int(j) >= m.B {
			t.Fatalf("weight slot %d on bone %d of %d", i, j, m.B)
		}
	}
	// Nothing more to drop: the maps come back as they are.
	if again := dropUnused(m, faceBone, allowed, 4); m.B != 2 || &again[0] != &allowed[0] {
		t.Errorf("a second pass changed the model: %d bones", m.B)
	}
}
