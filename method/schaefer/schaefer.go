package schaefer

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Name is the method's name in reports and on the command line (Schaefer & Yuksel 2007).
const Name = "face-clustering"

// clusterFrames bounds the frames face clustering prices merges on; more
// are sampled over the motion (farthest-point, as the default method
// does). The paper clusters its horse on 23 poses; 24 spread over
// horse-gallop's 48 give the same rig in 0.6 s less.
const clusterFrames = 24

// refineSweeps is the rotation sweeps of each skeletal refinement round.
const refineSweeps = 2

// Rig extracts a skeletal rig from s (or the free form with opt.Free).
func Rig(ctx context.Context, s *seq.Sequence, opt Options) (*rig.Rig, error) {
	opt = opt.withDefaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	us := method.NewUnitSphere(s.Rest.Verts)
	if len(s.Rest.Tris) == 0 {
		return nil, fmt.Errorf("the mesh has no faces to cluster")
	}
	full := &skinning.Model{N: s.N(), F: s.F(), Rest: us.To(nil, s.Rest.Verts), Frames: us.ToFrames(nil, s.Frames)}
	// m and rest are the welded model and mesh every step works on; the
	// rig is carried to the input's vertices (full) at the end.
	m, rest, w := skinning.WeldSeams(s, full)
	if w != nil {
		opt.Notes.Add(fmt.Sprintf("face-clustering: %d vertices welded to coincident ones (seams) for face adjacency and influence maps", w.Merged()))
	}
	top := m.Top
	// §3: face clustering on (at most clusterFrames) frames.
	c := m
	if sub := m.SampleFrames(clusterFrames); len(sub) < m.F {
		c = m.Subset(sub)
	}
	refs := faceREFs(c, rest.Tris)
	d := mesh.Diagonal(c.Rest) // in unit-sphere units
	maxErr := math.Pow(opt.Tolerance/100*d, 2) * float64(c.F)
	faceBone, nb, err := clusterFaces(ctx, refs, c.F, faceGraph(rest, top), opt.Bones, maxErr, opt.MaxBones,
		func(done, total int) { opt.Progress.Report("face clustering", done, total) })
	if err != nil {
		return nil, err
	}
	if opt.Lloyd > 0 {
		lloyd(refs, c.F, faceBone, nb, top, opt.Lloyd)
	}
	if nb == 1 {
		opt.Notes.Add("the whole mesh fits one rigid motion within the tolerance: one bone")
	}
	// Bone transforms on every frame from the clusters' functions.
	m.B = nb
	m.M = boneTransforms(m, rest.Tris, faceBone, nb)
	// §4: weights, influence maps, weights again.
	solveWeights(m, nil, opt.MaxInfluences)
	allowed := influenceMaps(m)
	solveWeights(m, allowed, opt.MaxInfluences)
	allowed = dropUnused(m, faceBone, allowed, opt.MaxInfluences)
	if opt.Free {
		return skinning.Spread(m, full, w).FreeRig(s, us)
	}
	// §5: skeleton.
	areas := vertexAreas(rest)
	tree := connectivity(m, areas, opt.AreaWeighted)
	h := hierarchy(m, tree, rootBone(rest, faceBone, m.B))
	m.Constrain(h)
	if opt.Refine > 0 {
		// Two rotation sweeps a round, as few as the method needs: its speed
		// over the default method is its point.
		err := m.FitSkeletonUntil(ctx, &h, opt.Refine, refineSweeps, 0, 0, func() { solveWeights(m, allowed, opt.MaxInfluences) },
			func(done, total int) { opt.Progress.Report("skeletal fit", done, total) })
		if err != nil {
			return nil, err
		}
		m.FitRotations(h, refineSweeps)
	}
	// The input's every vertex, seam copies included, in the last fit.
	if f := skinning.Spread(m, full, w); f != m {
		if opt.Refine > 0 {
			f.FitRotations(h, refineSweeps)
		}
		m = f
	}
	r := m.SkeletalRig(h, s)
	us.RigFrom(r, s.Rest)
	return r, r.Validate()
}

// boneTransforms fits every cluster's rigid transform in every frame from
// its faces' Rigid Error Functions.
func boneTransforms(m *skinning.Model, tris [][3]int, faceBone []int32, nb int) []linalg.Affine {
	out := make([]linalg.Affine, m.F*nb)
	par.For(m.F, 1, func(lo, hi int) {
		sum := make([]ref, nb)
		for f := lo; f < hi; f++ {
			clear(sum)
			fr := m.Frame(f)
			for t, tr := range tris {
				p := [3]linalg.Vec3{m.Rest[tr[0]], m.Rest[tr[1]], m.Rest[tr[2]]}
				q := [3]linalg.Vec3{fr[tr[0]], fr[tr[1]], fr[tr[2]]}
				r := faceREF(p, q)
				sum[faceBone[t]].add(&r)
			}
			for j := range sum {
				out[f*nb+j] = sum[j].transform()
			}
		}
	})
	return out
}

// vertexAreas returns a third of the area of each vertex's faces.
func vertexAreas(m *mesh.Mesh) []float64 {
	out := make([]float64, len(m.Verts))
	for t, a := range mesh.FaceAreas(m.Verts, m.Tris) {
		for _, i := range m.Tris[t] {
			out[i] += a / 3
		}
	}
	return out
}
