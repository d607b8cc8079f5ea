package aguiar

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/method/weld"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Name is the method's name in reports and on the command line (de Aguiar et al. 2008).
const Name = "spectral"

// Rig extracts a skeletal rig from s.
func Rig(ctx context.Context, s *seq.Sequence, opt Options) (*rig.Rig, error) {
	opt = opt.withDefaults()
	if opt.Variation < 0 || opt.Variation > 1 {
		return nil, fmt.Errorf("spectral: variation %g, want a share in (0, 1] (0: automatic)", opt.Variation)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(s.Rest.Tris) == 0 {
		return nil, fmt.Errorf("the mesh has no faces")
	}
	p, err := newProblem(s)
	if err != nil {
		return nil, err
	}
	if n := s.N() - p.m.N; n > 0 {
		opt.Notes.Add(fmt.Sprintf("spectral: %d vertices welded to coincident ones (seams) for patch adjacency and heat diffusion", n))
	}
	// §4 Segmentation.
	opt.Progress.Report("segmentation", 1, 4)
	segs, sm := segment(p.m, p.w.Tris, opt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	best, err := choose(ctx, sm, p.w.Tris, p.heat, segs, opt)
	if err != nil {
		return nil, err
	}
	return p.rig(ctx, best.vertex, best.tri, best.k, opt)
}

// problem is one run's input in unit-sphere units: every input vertex
// (full), and the welded mesh the topology-bound steps work on (m) with
// its heat system (shared by every rig made of it).
type problem struct {
	s    *seq.Sequence
	us   method.UnitSphere
	full *skinning.Model
	w    weld.Result
	m    *skinning.Model
	heat *skinweights.HeatSolver
}

func newProblem(s *seq.Sequence) (*problem, error) {
	us := method.NewUnitSphere(s.Rest.Verts)
	full := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.ToFrames(nil, s.Frames)}
	w := weld.Weld(full.Rest, full.Frames, s.Rest.Tris, s.F(), weld.Tolerance, weld.Tear)
	if len(w.Tris) == 0 {
		return nil, fmt.Errorf("every face of the mesh is degenerate")
	}
	m := &skinning.Model{N: len(w.Rest), F: s.F(), Rest: w.Rest, Frames: w.Frames,
		Top: mesh.NewTopology(&mesh.Mesh{Verts: w.Rest, Tris: w.Tris})}
	heat, err := skinweights.NewHeatSolver(w.Rest, w.Tris)
	if err != nil {
		return nil, err
	}
	return &problem{s: s, us: us, full: full, w: w, m: m, heat: heat}, nil
}

// rig builds the rig from k patches of the welded mesh (vertex and
// triangle classes), fits it to every input vertex and maps it back to
// the input's units.
func (p *problem) rig(ctx context.Context, vertex, tri []int32, k int, opt Options) (*rig.Rig, error) {
	m, full := p.m, p.full
	h, err := rigPatches(m, p.w.Tris, p.heat, vertex, tri, k, opt)
	if err != nil {
		return nil, err
	}
	// Every input vertex takes its welded vertex's weights; the fit of
	// the exported rig sees them all.
	full = skinning.Spread(m, full, &p.w)
	// Beyond the paper: the rotations and weights fitted to the input, the
	// weights on the bones the heat weights chose and pulled toward them;
	// the joints stay where Eq. 2 put them.
	if opt.Refine > 0 {
		heatB, heatW := append([]int32(nil), full.WB...), append([]float64(nil), full.WW...)
		for it := 0; it < opt.Refine; it++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			full.FitRotations(h, 2)
			fitWeights(full, heatB, heatW, heatPull)
		}
		full.FitRotations(h, 2)
	}
	r := full.SkeletalRig(h, p.s)
	p.us.RigFrom(r, p.s.Rest)
	return r, r.Validate()
}

// segmentFrames bounds the frames segmentation looks at.
const segmentFrames = 64

// segmentation is a split of the welded mesh into k patches: every
// vertex's and triangle's patch.
type segmentation struct {
	vertex, tri []int32
	k           int
}

// segment splits the mesh into approximately rigid patches (§4): seeds,
// the affinity of Eq. 1, spectral clustering, every triangle to its
// nearest seed's class, then the patches their neighbours explain merged
// away. It returns one segmentation per distinct spectral grouping of
// opt's variation levels, in the levels' order; m is the model the
// segmentation looked at (long sequences are segmented on frames spread
// over the motion).
func segment(m *skinning.Model, tris [][3]int, opt Options) ([]segmentation, *skinning.Model) {
	if m.F > segmentFrames {
		m = m.Subset(m.SampleFrames(segmentFrames))
	}
	l := int(math.Round(opt.SeedFraction * float64(m.N)))
	l = min(max(l, 200), 400, m.N)
	seed := seeds(m.Rest, l)
	// A patch counts as at least a seed and a half across when its
	// explanation is judged (slivers around a limb are small only one way).
	var area float64
	for _, a := range mesh.FaceAreas(m.Rest, tris) {
		area += a
	}
	minSize := 1.5 * math.Sqrt(area/float64(len(seed)))
	nearTri, nearLone := nearestSeeds(m.Rest, tris, seed)
	var out []segmentation
	for _, g := range spectral(m, seed, affinity(m, seed), opt.levels(), opt.MaxBones, opt.Seed) {
		vertex, tri := patches(tris, nearTri, nearLone, g.label)
		// Classes no triangle took are dropped and the rest renumbered.
		k := renumber(vertex, tri, g.k)
		k = merge(m, tris, vertex, tri, k, opt.MinTurn, minSize)
		if n := len(out); n > 0 && out[n-1].k == k && slices.Equal(out[n-1].vertex, vertex) && slices.Equal(out[n-1].tri, tri) {
			continue // the merge undid what the finer grouping added
		}
		out = append(out, segmentation{vertex: vertex, tri: tri, k: k})
	}
	return out, m
}

// rigPatches rigs the model from k patches (vertex and triangle classes):
// §5 skeleton, §6 motion (m.M), §7 weights (m.WB, m.WW). It returns the
// hierarchy.
func rigPatches(m *skinning.Model, tris [][3]int, hs *skinweights.HeatSolver, vertex, tri []int32, k int, opt Options) (skinning.Hierarchy, error) {
	// §5 Skeleton.
	opt.Progress.Report("skeleton", 2, 4)
	h, patch, center := skeleton(m, tris, vertex, tri, k, opt.Alpha)
	// Joints in every frame: the mean of where the two patches take them.
	joint := make([]linalg.Vec3, m.F*k)
	par.For(m.F, 4, func(lo, hi int) {
		for f := lo; f < hi; f++ {
			for _, x32 := range h.Order {
				x, p := int(x32), int(h.Parent[x32])
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
	w, err := heatWeights(hs, m, h, center, frames)
	if err != nil {
		return h, err
	}
	setWeights(m, w, opt.MaxInfluences)
	return h, nil
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

// rootPatch returns the patch "in the center of gravity" of the
// reference pose (§5): the patch of the vertex nearest the surface's
// area-weighted centroid (a vertex mean would lean toward finely
// tessellated parts, CesiumMan's head holding 40% of its vertices).
func rootPatch(rest []linalg.Vec3, tris [][3]int, vertex []int32) int {
	var g linalg.Vec3
	var total float64
	for t, a := range mesh.FaceAreas(rest, tris) {
		tr := tris[t]
		g = g.Add(rest[tr[0]].Add(rest[tr[1]]).Add(rest[tr[2]]).Scale(a / 3))
		total += a
	}
	if total == 0 {
		g = mesh.Centroid(rest)
	} else {
		g = g.Scale(1 / total)
	}
	best := 0
	for i, p := range rest {
		if p.Dist(g) < rest[best].Dist(g) {
			best = i
		}
	}
	return int(vertex[best])
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
