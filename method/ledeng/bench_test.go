package ledeng

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/seq"
)

// benchProblem returns a problem over the generated quadruped (6k
// vertices, 60 frames), initialized like Rig up to the decomposition.
func benchProblem(b *testing.B) *problem {
	r, err := character.Generate(character.Quadruped, character.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s := character.Sequence(r)
	us := method.NewUnitSphere(s.Rest.Verts)
	p := &problem{&skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.ToFrames(nil, s.Frames), Top: mesh.NewTopology(s.Rest)}}
	label, nc, err := p.clusterLBG(context.Background(), 32, nil)
	if err != nil {
		b.Fatal(err)
	}
	bone, nb := p.patches(label, nc, max(1, int(math.Ceil(0.001*float64(p.N)))))
	p.B = nb
	p.M = p.FitClusters(bone, nb)
	p.SetRigidWeights(bone)
	ws := &weightSolver{p: p, k: 4}
	ws.update(1)
	p.UpdateTransforms(0, nil)
	return p
}

func BenchmarkClustering(b *testing.B) {
	p := benchProblem(b)
	for b.Loop() {
		if _, _, err := p.clusterLBG(context.Background(), 32, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWeightsUpdate(b *testing.B) {
	p := benchProblem(b)
	ws := &weightSolver{p: p, k: 4, omega: 1e-3, lap: p.rigidness()}
	for b.Loop() {
		ws.update(smoothingSweeps(p.N))
	}
}

func BenchmarkRemovalCost(b *testing.B) {
	p := benchProblem(b)
	ws := &weightSolver{p: p, k: 4, omega: 1e-3, lap: p.rigidness()}
	ws.update(smoothingSweeps(p.N))
	for b.Loop() {
		ws.removalCost()
	}
}

func BenchmarkTransformsUpdate(b *testing.B) {
	p := benchProblem(b)
	joints := p.topology()
	for b.Loop() {
		p.UpdateTransforms(10, joints)
	}
}

func BenchmarkTopology(b *testing.B) {
	p := benchProblem(b)
	for b.Loop() {
		p.topology()
	}
}

func BenchmarkSkeletalFit(b *testing.B) {
	p := benchProblem(b)
	h := p.Root(p.topology())
	p.Constrain(h)
	for b.Loop() {
		p.FitRotations(h, 2)
		p.FitJoints(&h)
	}
}

func BenchmarkRigQuadruped(b *testing.B) {
	r, _ := character.Generate(character.Quadruped, character.Options{})
	s := character.Sequence(r)
	for b.Loop() {
		if _, err := Rig(context.Background(), s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRigHorse(b *testing.B) {
	s := loadShared(b, "sequences/horse-gallop")
	for b.Loop() {
		if _, err := Rig(context.Background(), s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRigCowBones is issue 16's slowest row against Dem Bones: the
// elastic cow (2904 vertices × 204 frames) at 11 bones, the skeleton
// found on the cow paired three times (383 vertices; SearchAuto with
// Bones).
func BenchmarkRigCowBones(b *testing.B) {
	s := loadShared(b, "sequences/cow")
	for b.Loop() {
		if _, err := Rig(context.Background(), s, Options{Bones: 11}); err != nil {
			b.Fatal(err)
		}
	}
}

// loadShared loads the shared data's rel (a folder or file), skipping tb
// when the shared data is not there.
func loadShared(tb testing.TB, rel string) *seq.Sequence {
	tb.Helper()
	in, err := format.Load([]string{filepath.Join(shareddata.Path(tb, filepath.Dir(rel)), filepath.Base(rel))}, format.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return in.Sequence
}

// BenchmarkRigCowBonesFull is BenchmarkRigCowBones with SearchFull: the
// skeleton found on every vertex.
func BenchmarkRigCowBonesFull(b *testing.B) {
	s := loadShared(b, "sequences/cow")
	for b.Loop() {
		if _, err := Rig(context.Background(), s, Options{Bones: 11, Search: SearchFull}); err != nil {
			b.Fatal(err)
		}
	}
}
