package aguiar

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/spantree"
)

// adjacency builds the skeleton's topology (§5): patches are adjacent
// when their triangles share edges, and where more than two meet only the
// longest common boundaries count — the maximum spanning tree of the
// boundary lengths. Patches that touch no other (separate shells) join
// through their nearest patch. It also returns, per tree edge, the
// centroid of the boundary triangles between the two patches.
func adjacency(rest []linalg.Vec3, tris [][3]int, top *mesh.Topology, tri []int32, k int, centroid []linalg.Vec3) ([]spantree.Edge, map[[2]int32]linalg.Vec3) {
	count := make([]float64, k*k)
	bsum := map[[2]int32]linalg.Vec3{}
	bn := map[[2]int32]float64{}
	for t, adj := range top.FaceAdj {
		for _, o := range adj {
			if o < 0 || tri[o] == tri[t] {
				continue
			}
			a, b := min(tri[t], tri[o]), max(tri[t], tri[o])
			count[int(a)*k+int(b)]++
			tr := tris[t]
			c := rest[tr[0]].Add(rest[tr[1]]).Add(rest[tr[2]]).Scale(1.0 / 3)
			key := [2]int32{a, b}
			bsum[key] = bsum[key].Add(c)
			bn[key]++
		}
	}
	var edges []spantree.Edge
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			if c := count[a*k+b]; c > 0 {
				edges = append(edges, spantree.Edge{A: a, B: b, W: c})
			}
		}
	}
	tree := spantree.Connect(k, spantree.Maximum(k, edges), func(a, b int) float64 { return centroid[a].Dist(centroid[b]) })
	boundary := map[[2]int32]linalg.Vec3{}
	for _, e := range tree {
		key := [2]int32{int32(min(e.A, e.B)), int32(max(e.A, e.B))}
		if n := bn[key]; n > 0 {
			boundary[key] = bsum[key].Scale(1 / n)
		} else {
			boundary[key] = centroid[key[0]].Add(centroid[key[1]]).Scale(0.5)
		}
	}
	return tree, boundary
}

// jointRest solves Eq. 2 for the joint of patches a and b in the
// reference pose: the point whose distance to the other patch's sample
// vertices varies least over time, each patch's motion factored out by
// its own rigid fit, plus alpha·|c − b|² toward the boundary centroid.
//
// The distance variance is taken on squared distances, which makes the
// problem linear: var_t |c − x_t|² = var_t(|x_t|² − 2c·x_t). Since
// var(d²) ≈ 4·d̄²·var(d), each sample's term is divided by 4·d̄², its
// mean squared distance from the joint, so that the data term weighs
// against alpha as the paper's variance of distances does (undivided,
// far samples dominate and alpha's pull grows with the part's size); d̄
// is taken at the previous solution, from the boundary centroid on.
func jointRest(m *skinning.Model, fit []linalg.Affine, a, b int, samples [][]int, boundary linalg.Vec3, alpha float64) linalg.Vec3 {
	// Every sample's frames seen from the other patch's rest frame.
	type track struct {
		xs    []linalg.Vec3
		mean  linalg.Vec3
		mean2 float64
	}
	var tracks []track
	inv := make([]linalg.Affine, m.F)
	add := func(own, other int) {
		for f := range inv {
			var ok bool
			if inv[f], ok = fit[f*m.B+own].Inverse(); !ok {
				inv[f] = linalg.IdentityAffine()
			}
		}
		for _, v := range samples[other] {
			tr := track{xs: make([]linalg.Vec3, m.F)}
			for f := 0; f < m.F; f++ {
				x := inv[f].Apply(m.Frames[f*m.N+v])
				tr.xs[f] = x
				tr.mean = tr.mean.Add(x)
				tr.mean2 += x.Norm2()
			}
			tr.mean = tr.mean.Scale(1 / float64(m.F))
			tr.mean2 /= float64(m.F)
			tracks = append(tracks, tr)
		}
	}
	add(a, b)
	add(b, a)
	// Squared distances below this (in the unit sphere's units) count as
	// this: a sample at the joint carries no more weight than one nearby.
	const minDist2 = 1e-4
	c := boundary
	for pass := 0; pass < jointPasses; pass++ {
		var A linalg.Mat3
		var r linalg.Vec3
		for _, tr := range tracks {
			d2 := math.Max(tr.mean2-2*c.Dot(tr.mean)+c.Norm2(), minDist2)
			w := 1 / (4 * d2 * float64(m.F))
			for _, x := range tr.xs {
				y := x.Sub(tr.mean)
				g := x.Norm2() - tr.mean2
				A = A.Add(linalg.Outer(y, y).Scale(2 * w))
				r = r.Add(y.Scale(g * w))
			}
		}
		// Each half of Eq. 2 carries ½; scale the data term to it.
		A, r = A.Scale(0.5), r.Scale(0.5)
		for k := 0; k < 3; k++ {
			A[k][k] += alpha
		}
		r = r.Add(boundary.Scale(alpha))
		inv, ok := A.Inverse()
		if !ok {
			return c
		}
		c = inv.MulVec(r)
	}
	return c
}

// jointPasses is how many times jointRest reweighs its samples by their
// distance from the joint found so far.
const jointPasses = 3

// skeleton builds the hierarchy of k patches (§5): topology from the
// patch boundaries, the root patch at the center of gravity, and every
// other patch's head at its joint with its parent by Eq. 2. It sets m.B
// and rigid weights, and returns the hierarchy, the patches' rigid fits
// (rest → frame, F·k) and their rest centers.
func skeleton(m *skinning.Model, tris [][3]int, vertex, tri []int32, k int, alpha float64) (skinning.Hierarchy, []linalg.Affine, []linalg.Vec3) {
	m.B = k
	m.SetRigidWeights(vertex)
	patch := m.FitClusters(vertex, k) // rest → frame per patch
	center := m.BoneCentroids()
	tree, boundary := adjacency(m.Rest, tris, m.Top, tri, k, center)
	samples := sampleVertices(vertex, k, 64)
	root := anchorPatch(m, patch, samples)
	anchored := root >= 0
	if !anchored {
		root = rootPatch(m.Rest, tris, vertex)
	}
	h := skinning.Hierarchy{Parent: make([]int32, k), Head: make([]linalg.Vec3, k)}
	parent, order := spantree.Root(k, tree, root)
	for _, x := range order {
		h.Order = append(h.Order, int32(x))
		h.Parent[x] = int32(parent[x])
		if parent[x] < 0 {
			h.Head[x] = rootHead(m, patch, x, vertex, center[x])
			continue
		}
		p := parent[x]
		key := [2]int32{int32(min(p, x)), int32(max(p, x))}
		h.Head[x] = jointRest(m, patch, p, x, samples, boundary[key], alpha)
	}
	if anchored {
		h.Head[root] = anchorHead(m.Rest, vertex, root, center[root], h)
	}
	h.Prior = append([]linalg.Vec3(nil), h.Head...)
	return h, patch, center
}

// anchorHead places an anchored root's joint where the object is fixed:
// the far end of the still patch from its children's joints, on the line
// from their mean through the patch's center (a fixed patch turns about
// no point, so rootHead has nothing to find).
func anchorHead(rest []linalg.Vec3, vertex []int32, r int, center linalg.Vec3, h skinning.Hierarchy) linalg.Vec3 {
	var joints linalg.Vec3
	n := 0
	for x, p := range h.Parent {
		if int(p) == r {
			joints = joints.Add(h.Head[x])
			n++
		}
	}
	if n == 0 {
		return center
	}
	dir := center.Sub(joints.Scale(1 / float64(n)))
	l := dir.Norm()
	if l == 0 {
		return center
	}
	dir = dir.Scale(1 / l)
	var reach float64
	for i, c := range vertex {
		if int(c) == r {
			reach = math.Max(reach, rest[i].Sub(center).Dot(dir))
		}
	}
	return center.Add(dir.Scale(reach))
}

// rootHead places the root's joint, which §5 leaves open (the root only
// carries the translation), where the root patch turns about: the point
// whose position over time varies least under the patch's rigid motions,
// Σ_f |T_f c − mean_f T_f c|², pulled toward the patch's center by a
// twentieth of the data term's mean curvature (as α does in Eq. 2), which
// decides along a rotation axis and for a patch that only translates. A
// point outside the patch (a motion mostly of travel) gives way to the
// center.
func rootHead(m *skinning.Model, patch []linalg.Affine, r int, vertex []int32, center linalg.Vec3) linalg.Vec3 {
	var rbar linalg.Mat3
	var tbar linalg.Vec3
	for f := 0; f < m.F; f++ {
		rbar = rbar.Add(patch[f*m.B+r].M)
		tbar = tbar.Add(patch[f*m.B+r].T)
	}
	rbar, tbar = rbar.Scale(1/float64(m.F)), tbar.Scale(1/float64(m.F))
	var a linalg.Mat3
	var b linalg.Vec3
	for f := 0; f < m.F; f++ {
		dr := patch[f*m.B+r].M.Add(rbar.Scale(-1))
		dt := patch[f*m.B+r].T.Sub(tbar)
		a = a.Add(dr.T().Mul(dr))
		b = b.Sub(dr.T().MulVec(dt))
	}
	alpha := 0.05 * (a[0][0] + a[1][1] + a[2][2]) / 3
	if alpha == 0 {
		return center
	}
	for k := 0; k < 3; k++ {
		a[k][k] += alpha
	}
	inv, ok := a.Inverse()
	if !ok {
		return center
	}
	c := inv.MulVec(b.Add(center.Scale(alpha)))
	var reach float64
	for i, l := range vertex {
		if int(l) == r {
			reach = math.Max(reach, m.Rest[i].Dist(center))
		}
	}
	if c.Dist(center) > 2*reach {
		return center
	}
	return c
}

// anchorStill is how much less than the liveliest patch an anchor patch
// moves (RMS displacement over its samples and frames).
const anchorStill = 0.02

// anchorPatch returns the patch an anchored object hangs from — one that
// stays where it is in every frame while the rest moves at least
// 1/anchorStill times as much (a prop fixed at its base, RiggedSimple's
// cylinder) — or −1 for a free body. §5's center of gravity presumes a
// free body, a character; an anchored one turns about its fixed part,
// which is where an artist roots it.
func anchorPatch(m *skinning.Model, patch []linalg.Affine, samples [][]int) int {
	move := make([]float64, m.B)
	for c, vs := range samples {
		if len(vs) == 0 {
			move[c] = math.Inf(1)
			continue
		}
		var s float64
		for f := 0; f < m.F; f++ {
			for _, v := range vs {
				s += patch[f*m.B+c].Apply(m.Rest[v]).Sub(m.Rest[v]).Norm2()
			}
		}
		move[c] = math.Sqrt(s / float64(m.F*len(vs)))
	}
	still, lively := -1, 0.0
	for c, x := range move {
		if math.IsInf(x, 1) {
			continue
		}
		lively = math.Max(lively, x)
		if still < 0 || x < move[still] {
			still = c
		}
	}
	if still < 0 || lively == 0 || move[still] > anchorStill*lively {
		return -1
	}
	return still
}
