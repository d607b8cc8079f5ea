package aguiar

import (
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// merge removes the patches whose motion their neighbours already
// explain, and returns the new patch count (vertex and tri relabelled in
// place).
//
// Spectral clustering finds every group of seeds that moves alike, and
// that includes the bands where the skin blends across a joint: they turn
// half as far as the bones on either side and come out as patches of
// their own, each adding a joint beside the true one. Likewise a part
// that never turns against its neighbour is two patches only because the
// distance term of Eq. 1 parted them, and no joint can be located
// between them (§8, "Discussion"). A patch P is redundant when one
// neighbour's rigid motion, or a per-vertex blend of two neighbours'
// (what linear blend skinning does across a joint), reproduces its
// vertices in every frame to within tol times P's size (the RMS distance
// of its vertices from their centroid, at least minSize, so tol reads as
// an angle in radians). The most redundant patch goes first; its vertices go to the
// neighbour whose blend weight is larger, which puts the boundary in the
// middle of the blend, where the skin's dominant bone changes. A patch of
// fewer than three vertices (nearest-seed triangles leave such slivers on
// coarse meshes, where three or more bones blend) has no rigid motion of
// its own and goes first, to its best account whatever its score.
func merge(m *skinning.Model, tris [][3]int, vertex, tri []int32, k int, tol, minSize float64) int {
	if k < 2 || tol <= 0 {
		return k
	}
	fits := make([]linalg.RigidFit, m.F*k)
	par.For(m.F, 1, func(lo, hi int) {
		for f := lo; f < hi; f++ {
			fr := m.Frame(f)
			for i, c := range vertex {
				fits[f*k+int(c)].Add(m.Rest[i], fr[i], 1)
			}
		}
	})
	motion := make([]linalg.Affine, m.F*k)
	solve := func(c int) {
		for f := 0; f < m.F; f++ {
			motion[f*k+c] = fits[f*k+c].Solve()
		}
	}
	for c := 0; c < k; c++ {
		solve(c)
	}
	members := make([][]int32, k)
	for i, c := range vertex {
		members[c] = append(members[c], int32(i))
	}
	best := make([]explanation, k)
	stale := make([]bool, k)
	for c := range stale {
		stale[c] = true
	}
	n := k
	for n > 1 {
		adj := patchAdjacency(m, tri, k)
		par.For(k, 1, func(lo, hi int) {
			for c := lo; c < hi; c++ {
				if stale[c] {
					best[c] = explain(m, motion, k, members[c], adj[c], minSize)
					stale[c] = false
				}
			}
		})
		p := -1
		for c := range best {
			if len(members[c]) == 0 || best[c].a < 0 {
				continue
			}
			if len(members[c]) < minRigid {
				best[c].score = -1 // no rigid motion of its own
			}
			if best[c].score < tol && (p < 0 || best[c].score < best[p].score) {
				p = c
			}
		}
		if p < 0 {
			break
		}
		e := best[p]
		w := blendWeights(m, motion, k, members[p], e.a, e.b)
		for j, i := range members[p] {
			to := e.a
			if e.b >= 0 && w[j] < 0.5 {
				to = e.b
			}
			vertex[i] = int32(to)
			members[to] = append(members[to], i)
			for f := 0; f < m.F; f++ {
				fits[f*k+to].Add(m.Rest[i], m.Frames[f*m.N+int(i)], 1)
			}
		}
		members[p] = nil
		best[p] = explanation{a: -1, b: -1}
		for t, tr := range tris {
			if tri[t] == int32(p) {
				tri[t] = majority(vertex[tr[0]], vertex[tr[1]], vertex[tr[2]])
			}
		}
		// What changed: the receiving patches' motions and members, and so
		// every account that leans on them or on the removed patch.
		changed := []int{p, e.a}
		solve(e.a)
		if e.b >= 0 {
			solve(e.b)
			changed = append(changed, e.b)
		}
		for _, c := range changed {
			stale[c] = true
			for _, x := range adj[c] {
				stale[x] = true
			}
		}
		stale[p] = false
		n--
	}
	return renumber(vertex, tri, k)
}

// minRigid is the fewest vertices that determine a rigid motion (three
// not on one line): a patch with fewer cannot be a bone.
const minRigid = 3

// explanation is the best account of a patch by its neighbours: its
// vertices move as blends of a's and b's motions (b < 0: as a alone).
type explanation struct {
	a, b  int
	score float64
}

// maxScored bounds the vertices of a patch that explain scores.
const maxScored = 200

// explain finds the neighbour, or blend of two, that best reproduces the
// patch's vertices (at most maxScored of them, evenly picked): score is
// the worst frame's RMS error over the patch divided by its size.
func explain(m *skinning.Model, motion []linalg.Affine, k int, members []int32, nb []int, minSize float64) explanation {
	out := explanation{a: -1, b: -1, score: math.Inf(1)}
	if len(members) == 0 || len(nb) == 0 {
		return out
	}
	if len(members) > maxScored {
		picked := make([]int32, maxScored)
		for j := range picked {
			picked[j] = members[j*len(members)/maxScored]
		}
		members = picked
	}
	var c linalg.Vec3
	for _, i := range members {
		c = c.Add(m.Rest[i])
	}
	c = c.Scale(1 / float64(len(members)))
	var size float64
	for _, i := range members {
		size += m.Rest[i].Sub(c).Norm2()
	}
	size = math.Max(math.Sqrt(size/float64(len(members))), minSize)
	if size == 0 {
		size = 1e-12
	}
	// Where each neighbour's motion takes each vertex, frame by frame.
	pred := make([][]linalg.Vec3, len(nb))
	for x, a := range nb {
		pred[x] = make([]linalg.Vec3, len(members)*m.F)
		for j, i := range members {
			for f := 0; f < m.F; f++ {
				pred[x][j*m.F+f] = motion[f*k+a].Apply(m.Rest[i])
			}
		}
	}
	frameErr := make([]float64, m.F)
	try := func(x, y int) {
		clear(frameErr)
		for j, i := range members {
			pa := pred[x][j*m.F : (j+1)*m.F]
			if y >= 0 {
				pb := pred[y][j*m.F : (j+1)*m.F]
				wj := blend(m, i, pa, pb)
				for f := range pa {
					frameErr[f] += pa[f].Scale(wj).Add(pb[f].Scale(1 - wj)).Sub(m.Frames[f*m.N+int(i)]).Norm2()
				}
			} else {
				for f := range pa {
					frameErr[f] += pa[f].Sub(m.Frames[f*m.N+int(i)]).Norm2()
				}
			}
		}
		var worst float64
		for _, e := range frameErr {
			worst = math.Max(worst, e)
		}
		if s := math.Sqrt(worst/float64(len(members))) / size; s < out.score {
			out.a, out.b, out.score = nb[x], -1, s
			if y >= 0 {
				out.b = nb[y]
			}
		}
	}
	for x := range nb {
		try(x, -1)
		for y := x + 1; y < len(nb); y++ {
			try(x, y)
		}
	}
	return out
}

// patchAdjacency lists, per patch, the patches whose triangles share an
// edge with its own, in increasing order.
func patchAdjacency(m *skinning.Model, tri []int32, k int) [][]int {
	seen := make([]bool, k*k)
	for t, nb := range m.Top.FaceAdj {
		for _, o := range nb {
			if o >= 0 && tri[o] != tri[t] {
				seen[int(tri[t])*k+int(tri[o])] = true
			}
		}
	}
	adj := make([][]int, k)
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			if seen[a*k+b] {
				adj[a] = append(adj[a], b)
			}
		}
	}
	return adj
}

// majority returns the class two or three of a triangle's vertices share,
// or the first vertex's.
func majority(a, b, c int32) int32 {
	if b == c {
		return b
	}
	return a
}

// blend returns the weight w ∈ [0, 1] for which w·pa + (1 − w)·pb, two
// motions' predictions of vertex i frame by frame, best fits its frames.
func blend(m *skinning.Model, i int32, pa, pb []linalg.Vec3) float64 {
	var dd, dr float64
	for f := range pa {
		d := pa[f].Sub(pb[f])
		dd += d.Norm2()
		dr += d.Dot(m.Frames[f*m.N+int(i)].Sub(pb[f]))
	}
	if dd == 0 {
		return 1
	}
	return math.Max(0, math.Min(1, dr/dd))
}

// blendWeights returns blend for every member between patches a and b
// (all ones when b < 0).
func blendWeights(m *skinning.Model, motion []linalg.Affine, k int, members []int32, a, b int) []float64 {
	w := make([]float64, len(members))
	pa := make([]linalg.Vec3, m.F)
	pb := make([]linalg.Vec3, m.F)
	for j, i := range members {
		w[j] = 1
		if b < 0 {
			continue
		}
		for f := 0; f < m.F; f++ {
			pa[f] = motion[f*k+a].Apply(m.Rest[i])
			pb[f] = motion[f*k+b].Apply(m.Rest[i])
		}
		w[j] = blend(m, i, pa, pb)
	}
	return w
}
