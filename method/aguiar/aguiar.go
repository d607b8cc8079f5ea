package aguiar

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
	"github.com/meshrig/meshrig/spantree"
)

// Name is the method's name in reports.
const Name = "de-aguiar-2008"

// Rig extracts a skeletal rig from s.
func Rig(ctx context.Context, s *seq.Sequence, opt Options) (*rig.Rig, error) {
	opt = opt.withDefaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(s.Rest.Tris) == 0 {
		return nil, fmt.Errorf("the mesh has no faces")
	}
	us := method.NewUnitSphere(s.Rest.Verts)
	top := mesh.NewTopology(s.Rest)
	m := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.To(nil, s.Frames), Top: top}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x61677569))

	// §4 Segmentation.
	l := int(math.Round(opt.SeedFraction * float64(m.N)))
	l = min(max(l, 40), 400, m.N)
	seed := seeds(m.Rest, l)
	opt.Progress.Report("segmentation", 1, 4)
	class, k := spectral(m, seed, affinity(m, seed), opt.Variation, opt.MaxBones, rng)
	vertex, tri := patches(m.Rest, s.Rest.Tris, seed, class, k)
	// Classes no triangle took are dropped and the rest renumbered.
	k = renumber(vertex, tri, k)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.B = k
	m.SetRigidWeights(vertex)
	patch := m.FitClusters(vertex, k) // rest → frame per patch
	center := m.BoneCentroids()

	// §5 Skeleton.
	opt.Progress.Report("skeleton", 2, 4)
	tree, boundary := adjacency(m.Rest, s.Rest.Tris, top, tri, k, center)
	root := rootPatch(m.Rest, center)
	samples := sampleVertices(vertex, k, 64)
	h := skinning.Hierarchy{Parent: make([]int32, k), Head: make([]linalg.Vec3, k)}
	parent, order := spantree.Root(k, tree, root)
	for _, x := range order {
		h.Order = append(h.Order, int32(x))
		h.Parent[x] = int32(parent[x])
		if parent[x] < 0 {
			h.Head[x] = center[x]
			continue
		}
		p := parent[x]
		key := [2]int32{int32(min(p, x)), int32(max(p, x))}
		h.Head[x] = jointRest(m, patch, p, x, samples, boundary[key], opt.Alpha)
	}
	h.Prior = append([]linalg.Vec3(nil), h.Head...)
	// Joints in every frame: the mean of where the two patches take them.
	joint := make([]linalg.Vec3, m.F*k)
	par.For(m.F, 4, func(lo, hi int) {
		for f := lo; f < hi; f++ {
			for _, x := range order {
				p := parent[x]
				if p < 0 {
					joint[f*k+x] = patch[f*k+x].Apply(h.Head[x])
					continue
				}
				joint[f*k+x] = patch[f*k+p].Apply(h.Head[x]).Add(patch[f*k+x].Apply(h.Head[x])).Scale(0.5)
			}
		}
	})

	// §6 Motion.
	opt.Progress.Report("motion", 3, 4)
	motion(m, h, joint, patch)

	// §7 Weights.
	opt.Progress.Report("heat weights", 4, 4)
	frames := m.SampleFrames(m.F)
	if opt.HeatFrames > 0 {
		frames = m.SampleFrames(opt.HeatFrames)
	}
	w, err := heatWeights(m, s.Rest.Tris, h, center, frames)
	if err != nil {
		return nil, err
	}
	setWeights(m, w, opt.MaxInfluences)

	if opt.Refine > 0 {
		if err := m.FitSkeleton(ctx, &h, opt.Refine, nil, nil); err != nil {
			return nil, err
		}
		m.FitRotations(h, 2)
	}
	r := m.SkeletalRig(h, s)
	us.RigFrom(r, s.Rest)
	return r, r.Validate()
}

// renumber drops classes that hold no triangle and returns the new count.
func renumber(vertex, tri []int32, k int) int {
	id := make([]int32, k)
	for i := range id {
		id[i] = -1
	}
	n := int32(0)
	for _, c := range tri {
		if id[c] < 0 {
			id[c] = n
			n++
		}
	}
	for t := range tri {
		tri[t] = id[tri[t]]
	}
	for i, c := range vertex {
		if id[c] < 0 { // a vertex of a class with no triangle: class 0
			vertex[i] = 0
			continue
		}
		vertex[i] = id[c]
	}
	return int(n)
}

// rootPatch returns the patch whose center is nearest the center of
// gravity of the reference pose (§5).
func rootPatch(rest []linalg.Vec3, center []linalg.Vec3) int {
	g := mesh.Centroid(rest)
	best := 0
	for c := range center {
		if center[c].Dist(g) < center[best].Dist(g) {
			best = c
		}
	}
	return best
}

// sampleVertices returns up to n vertices of every patch, evenly spread
// over its vertex list: the "seed vertices" of Eq. 2 for each patch (the
// seeds themselves are too few on a small patch for a rigid fit).
func sampleVertices(vertex []int32, k, n int) [][]int {
	all := make([][]int, k)
	for i, c := range vertex {
		all[c] = append(all[c], i)
	}
	for c := range all {
		if len(all[c]) > n {
			s := make([]int, n)
			for j := range s {
				s[j] = all[c][j*len(all[c])/n]
			}
			all[c] = s
		}
	}
	return all
}

// setWeights keeps each vertex's k largest positive weights, normalized.
func setWeights(m *skinning.Model, w []float64, k int) {
	m.WB = make([]int32, m.N*skinning.MaxK)
	m.WW = make([]float64, m.N*skinning.MaxK)
	skin := rig.FromDense(clampDense(w), m.N, m.B, k)
	for i, in := range skin {
		for s := 0; s < skinning.MaxK; s++ {
			m.WB[i*skinning.MaxK+s], m.WW[i*skinning.MaxK+s] = -1, 0
			if in.Weight[s] > 0 {
				m.WB[i*skinning.MaxK+s], m.WW[i*skinning.MaxK+s] = int32(in.Joint[s]), in.Weight[s]
			}
		}
	}
}

func clampDense(w []float64) []float64 {
	for i, x := range w {
		w[i] = math.Max(0, math.Min(1, x))
	}
	return w
}
