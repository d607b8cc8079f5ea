package ledeng

import (
	"context"
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"gonum.org/v1/gonum/floats"
)

// transpose returns the F·nc transforms bone-major: bone j frame f at j*F+f.
func transpose(m []linalg.Affine, f, nc int) []linalg.Affine {
	t := make([]linalg.Affine, len(m))
	for fr := 0; fr < f; fr++ {
		for j := 0; j < nc; j++ {
			t[j*f+fr] = m[fr*nc+j]
		}
	}
	return t
}

// vertexError returns Σ_f |M_j^f u_i − v_i^f|² for the bone-major
// transforms mt of bone j.
func (p *problem) vertexError(i int, mt []linalg.Affine) float64 {
	u := p.Rest[i]
	var e float64
	for f := 0; f < p.F; f++ {
		e += mt[f].Apply(u).Sub(p.Pos(f, i)).Norm2()
	}
	return e
}

// trajectories gives, per vertex, the products the E-step needs so that
// a vertex's error under a cluster is one dot product: with
//
//	Σ_f |R_f u + T_f − v_f|² = Σ_f (|u|² + |T_f|² + |v_f|²) + 2u·Σ_f R_fᵀT_f
//	                           − 2 Σ_f (v_fᵀ R_f u + v_f·T_f),
//
// the last sum is x_i·y_j for the 12F-vectors x_i = (v_f uᵀ, v_f)_f and
// y_j = (R_f, T_f)_f. The x_i are built when used (vec), a few at a time
// per worker: stored, they cost 96 bytes per vertex and frame, four times
// the frames themselves. What they are built from is stored, vertex-major
// (24 bytes per vertex and frame of the ≤ 40 sampled frames the
// clustering runs on): read frame-major, each x_i gathered F scattered
// positions, and those cache misses were half the clustering's time.
// (float32 storage would halve that, but its rounding moves the count on
// exact LBS data: RiggedSimple 6 bones → 17.)
type trajectories struct {
	p    *problem
	dim  int
	pos  []linalg.Vec3 // vertex i frame f at i·F+f
	self []float64     // Σ_f |v_f|² + F|u|² per vertex
}

func (p *problem) trajectories() *trajectories {
	t := &trajectories{p: p, dim: 12 * p.F, pos: make([]linalg.Vec3, p.N*p.F)}
	t.self = make([]float64, p.N)
	par.For(p.N, 256, func(lo, hi int) {
		for f := 0; f < p.F; f++ { // a frame's block of vertices at a time
			for i := lo; i < hi; i++ {
				t.pos[i*p.F+f] = p.Pos(f, i)
			}
		}
		for i := lo; i < hi; i++ {
			u := p.Rest[i]
			s := float64(p.F) * u.Norm2()
			for _, v := range t.pos[i*p.F : (i+1)*p.F] {
				s += v.Norm2()
			}
			t.self[i] = s
		}
	})
	return t
}

// vec writes x_i into x (length dim) and returns it.
func (t *trajectories) vec(i int, x []float64) []float64 {
	u := t.p.Rest[i]
	for f, v := range t.pos[i*t.p.F : (i+1)*t.p.F] {
		o := x[12*f : 12*f+12]
		for a := 0; a < 3; a++ {
			o[3*a] = v[a] * u[0]
			o[3*a+1] = v[a] * u[1]
			o[3*a+2] = v[a] * u[2]
			o[9+a] = v[a]
		}
	}
	return x
}

// clusterVectors returns, per cluster, y_j (12F), the constant
// Σ_f |T_f|² and g_j = Σ_f R_fᵀT_f.
func clusterVectors(m []linalg.Affine, f, nc int) (y []float64, c []float64, g []linalg.Vec3) {
	dim := 12 * f
	y = make([]float64, nc*dim)
	c = make([]float64, nc)
	g = make([]linalg.Vec3, nc)
	for fr := 0; fr < f; fr++ {
		for j := 0; j < nc; j++ {
			a := m[fr*nc+j]
			o := y[j*dim+12*fr : j*dim+12*fr+12]
			for r := 0; r < 3; r++ {
				o[3*r], o[3*r+1], o[3*r+2] = a.M[r][0], a.M[r][1], a.M[r][2]
				o[9+r] = a.T[r]
			}
			c[j] += a.T.Norm2()
			g[j] = g[j].Add(a.M.T().MulVec(a.T))
		}
	}
	return y, c, g
}

// fit fits one rigid transform per cluster and frame (the M-step), from
// the members' trajectory vectors: summed, they hold Σ v_f uᵀ and Σ v_f,
// all a rigid fit needs besides Σ u and the member count. Sums run over
// fixed chunks of vertices, added in order. The result is F·nc,
// frame-major; a cluster without members gets the identity.
func (t *trajectories) fit(p *problem, label []int32, nc int) []linalg.Affine {
	dim := t.dim
	const grain = 2048
	type part struct {
		x []float64
		u []linalg.Vec3
		n []float64
	}
	parts := make([]part, (p.N+grain-1)/grain)
	par.For(p.N, grain, func(lo, hi int) {
		pt := part{make([]float64, nc*dim), make([]linalg.Vec3, nc), make([]float64, nc)}
		x := make([]float64, dim)
		for i := lo; i < hi; i++ {
			l := label[i]
			if l < 0 { // dropped, awaiting reassignment
				continue
			}
			floats.Add(pt.x[int(l)*dim:(int(l)+1)*dim], t.vec(i, x))
			pt.u[l] = pt.u[l].Add(p.Rest[i])
			pt.n[l]++
		}
		parts[lo/grain] = pt
	})
	sum := parts[0]
	for _, pt := range parts[1:] {
		floats.Add(sum.x, pt.x)
		for j := range sum.u {
			sum.u[j] = sum.u[j].Add(pt.u[j])
			sum.n[j] += pt.n[j]
		}
	}
	m := make([]linalg.Affine, p.F*nc)
	par.For(nc, 1, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			x := sum.x[j*dim : (j+1)*dim]
			for f := 0; f < p.F; f++ {
				o := x[12*f : 12*f+12]
				fit := linalg.RigidFit{W: sum.n[j], SX: sum.u[j], SY: linalg.Vec3{o[9], o[10], o[11]}}
				for a := 0; a < 3; a++ {
					fit.SYX[a] = [3]float64{o[3*a], o[3*a+1], o[3*a+2]}
				}
				m[f*nc+j] = fit.Solve()
			}
		}
	})
	return m
}

// clusterFit is one E-step's view of the clusters' transforms: y, c, g
// of clusterVectors.
type clusterFit struct {
	y, c []float64
	g    []linalg.Vec3
}

func newClusterFit(m []linalg.Affine, f, nc int) clusterFit {
	y, c, g := clusterVectors(m, f, nc)
	return clusterFit{y, c, g}
}

// err returns Σ_f |M_j^f u_i − v_i^f|² by one dot product (never below 0:
// the expansion may round there for an exact fit); x is scratch of length
// dim.
func (t *trajectories) err(p *problem, i int, cf clusterFit, j int, x []float64) float64 {
	dim := t.dim
	dot := floats.Dot(t.vec(i, x), cf.y[j*dim:(j+1)*dim])
	return max(0, t.self[i]+cf.c[j]+2*p.Rest[i].Dot(cf.g[j])-2*dot)
}

// assign relabels every vertex to the cluster that reconstructs it best
// (the E-step) and returns how many labels changed.
func (p *problem) assign(t *trajectories, label []int32, m []linalg.Affine, nc int) int {
	cf := newClusterFit(m, p.F, nc)
	y, c, g := cf.y, cf.c, cf.g
	dim := t.dim
	changed := make([]int, (p.N+1023)/1024)
	par.For(p.N, 1024, func(lo, hi int) {
		buf := make([]float64, dim)
		for i := lo; i < hi; i++ {
			x := t.vec(i, buf)
			u := p.Rest[i]
			best, bestE := label[i], math.Inf(1)
			for j := 0; j < nc; j++ {
				dot := floats.Dot(x, y[j*dim:(j+1)*dim])
				e := t.self[i] + c[j] + 2*u.Dot(g[j]) - 2*dot
				if e < bestE {
					best, bestE = int32(j), e
				}
			}
			if best != label[i] {
				label[i] = best
				changed[lo/1024]++
			}
		}
	})
	total := 0
	for _, c := range changed {
		total += c
	}
	return total
}

// compact drops clusters with fewer than minSize members, relabelling
// the rest 0…k-1 in order; it returns the new count. Members of dropped
// clusters keep a stale label of -1 and must be reassigned.
func compact(label []int32, nc, minSize int) int {
	count := make([]int, nc)
	for _, l := range label {
		if l >= 0 {
			count[l]++
		}
	}
	remap := make([]int32, nc)
	k := int32(0)
	for j := 0; j < nc; j++ {
		if count[j] >= minSize {
			remap[j] = k
			k++
		} else {
			remap[j] = -1
		}
	}
	for i, l := range label {
		if l >= 0 {
			label[i] = remap[l]
		}
	}
	return int(k)
}

// split divides cluster j by the seed rule of Eq. 1: the member whose
// reconstruction error times rest distance to the cluster centroid is
// largest seeds a new cluster holding the members nearest to it (half of
// them). It returns false when the cluster is too small to split.
func (p *problem) split(label []int32, j int32, newLabel int32, verr []float64) bool {
	var members []int
	var o linalg.Vec3
	for i, l := range label {
		if l == j {
			members = append(members, i)
			o = o.Add(p.Rest[i])
		}
	}
	if len(members) < 2 {
		return false
	}
	o = o.Scale(1 / float64(len(members)))
	seed, best := members[0], -1.0
	for _, i := range members {
		e := math.Sqrt(verr[i] / float64(p.F)) // Eq. 1b
		if s := p.Rest[i].Dist(o) * e; s > best {
			seed, best = i, s
		}
	}
	us := p.Rest[seed]
	sort.SliceStable(members, func(a, b int) bool {
		return p.Rest[members[a]].Dist(us) < p.Rest[members[b]].Dist(us)
	})
	for _, i := range members[:len(members)/2] {
		label[i] = newLabel
	}
	return true
}

// exactFit is the squared error (unit-sphere units, per frame) below
// which a cluster counts as exactly rigid and is not split further.
const exactFit = 1e-10

// emIterations bounds the EM refinement after each split.
const emIterations = 8

// clusterLBG runs the motion-driven LBG clustering of §4 up to target
// clusters and returns the labels and the cluster count.
func (p *problem) clusterLBG(ctx context.Context, target int, progress func(done, total int)) ([]int32, int, error) {
	label := make([]int32, p.N)
	nc := 1
	minSize := int(math.Ceil(0.001 * float64(p.N))) // 0.1% of the vertices
	if minSize < 1 {
		minSize = 1
	}
	traj := p.trajectories()
	m := traj.fit(p, label, nc)
	verr := make([]float64, p.N)
	for nc < target {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		// Split the clusters with the largest error first, as many as
		// needed to reach target (all of them while doubling fits).
		cf := newClusterFit(m, p.F, nc)
		par.For(p.N, 1024, func(lo, hi int) {
			x := make([]float64, traj.dim)
			for i := lo; i < hi; i++ {
				verr[i] = traj.err(p, i, cf, int(label[i]), x)
			}
		})
		errs := make([]float64, nc)
		for i, l := range label {
			errs[l] += verr[i]
		}
		order := make([]int, nc)
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return errs[order[a]] > errs[order[b]] })
		want := min(nc, target-nc)
		prev, next := nc, nc
		for _, j := range order[:want] {
			if errs[j] <= exactFit*float64(p.F) {
				continue // already rigid: splitting adds a redundant bone
			}
			if p.split(label, int32(j), int32(next), verr) {
				next++
			}
		}
		if next == nc {
			break // nothing left to split
		}
		nc = next
		// EM refinement.
		for it := 0; it < emIterations; it++ {
			m = traj.fit(p, label, nc)
			changed := p.assign(traj, label, m, nc)
			if k := compact(label, nc, minSize); k != nc {
				nc = k
				m = traj.fit(p, label, nc)
				p.assign(traj, label, m, nc)
			}
			if changed <= p.N/1000 {
				break
			}
		}
		m = traj.fit(p, label, nc)
		if progress != nil {
			progress(min(nc, target), target)
		}
		if nc <= prev { // split clusters die again: the motion has no more parts
			break
		}
	}
	return label, nc, nil
}
