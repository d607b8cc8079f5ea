package aguiar

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinning"
)

// seeds picks l vertices spread evenly over the reference pose by
// farthest-point sampling from the vertex nearest the centroid.
func seeds(rest []linalg.Vec3, l int) []int {
	var c linalg.Vec3
	for _, p := range rest {
		c = c.Add(p)
	}
	c = c.Scale(1 / float64(len(rest)))
	first := 0
	for i, p := range rest {
		if p.Dist(c) < rest[first].Dist(c) {
			first = i
		}
	}
	near := make([]float64, len(rest))
	for i := range near {
		near[i] = math.Inf(1)
	}
	out := []int{first}
	for len(out) < l {
		last := rest[out[len(out)-1]]
		best := 0
		for i, p := range rest {
			near[i] = math.Min(near[i], p.Sub(last).Norm2())
			if near[i] > near[best] {
				best = i
			}
		}
		if near[best] == 0 {
			break
		}
		out = append(out, best)
	}
	return out
}

// affinity builds Eq. 1 over the seeds from ρ_ij, the mean over time of
// seeds i and j's distance, and σ_ij, its standard deviation.
//
// As printed, A_ij = exp(−(σ_ij + √ρ_ij)/S²) adds a length to the root of
// a length and divides by a squared one, so it depends on the units: in
// ours (the unit sphere) √ρ dwarfs σ and the groups come out spatial, not
// rigid. We make both terms unit-free by their means over all pairs, S_σ
// and S_ρ, keep the distance term as the paper's tie-breaker (it parts
// far-apart seeds that move alike), and set its weight and the kernel's
// width by measurement on the ground-truth characters:
//
//	A_ij = exp(−(σ_ij/S_σ + w·√ρ_ij/S_ρ)/β),  w = 0.3, β = 0.1.
func affinity(m *skinning.Model, seed []int) *mat.SymDense {
	const w, beta = 0.3, 0.1
	l := len(seed)
	sd := make([]float64, l*l)
	root := make([]float64, l*l)
	par.For(l, 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := i + 1; j < l; j++ {
				var s, s2 float64
				for f := 0; f < m.F; f++ {
					d := m.Frames[f*m.N+seed[i]].Dist(m.Frames[f*m.N+seed[j]])
					s += d
					s2 += d * d
				}
				mean := s / float64(m.F)
				sd[i*l+j] = math.Sqrt(math.Max(0, s2/float64(m.F)-mean*mean))
				root[i*l+j] = math.Sqrt(mean)
			}
		}
	})
	var ss, sr float64
	for i := 0; i < l; i++ {
		for j := i + 1; j < l; j++ {
			ss += sd[i*l+j]
			sr += root[i*l+j]
		}
	}
	pairs := float64(l*(l-1)) / 2
	ss, sr = ss/pairs, sr/pairs
	if ss == 0 { // nothing moves: one rigid group
		ss = 1
	}
	a := mat.NewSymDense(l, nil)
	for i := 0; i < l; i++ {
		a.SetSym(i, i, 1)
		for j := i + 1; j < l; j++ {
			a.SetSym(i, j, math.Exp(-(sd[i*l+j]/ss+w*root[i*l+j]/sr)/beta))
		}
	}
	return a
}

// grouping is one clustering of the seeds: each seed's group, and the
// number of groups.
type grouping struct {
	label []int
	k     int
}

// spectral clusters the seeds (Ng, Jordan & Weiss 2002): rows of the k
// leading eigenvectors of D^{-1/2} A D^{-1/2}, normalized to unit length,
// grouped by k-means (k-means++ seedings from seed0). For each share in
// levels (ascending) it returns the grouping at the smallest k, from 2 to
// maxK, for which rigid motions of the groups explain that share of the
// seeds' motion beyond one rigid motion of them all — the paper's "about
// 99% of the total variation" — or at maxK; levels met at the same k
// share one grouping.
func spectral(m *skinning.Model, seed []int, a *mat.SymDense, levels []float64, maxK int, seed0 uint64) []grouping {
	l := a.SymmetricDim()
	d := make([]float64, l)
	for i := 0; i < l; i++ {
		for j := 0; j < l; j++ {
			d[i] += a.At(i, j)
		}
	}
	n := mat.NewSymDense(l, nil)
	for i := 0; i < l; i++ {
		for j := i; j < l; j++ {
			n.SetSym(i, j, a.At(i, j)/math.Sqrt(d[i]*d[j]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(n, true) {
		return []grouping{{label: make([]int, l), k: 1}}
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs) // eigenvalues ascending: leading vectors last
	// The variation to explain is what one rigid motion of all seeds
	// leaves: the articulation, not the character's travel.
	total := residual(m, seed, make([]int, l))
	var out []grouping
	var label []int
	met := false // label is out's last grouping
	next := 0    // the first level not met yet
	for k := 2; k <= min(maxK, l) && next < len(levels); k++ {
		y := make([]float64, l*k) // row i: seed i's embedding, unit length
		for i := 0; i < l; i++ {
			row := y[i*k : (i+1)*k]
			var norm float64
			for c := range row {
				row[c] = vecs.At(i, l-1-c)
				norm += row[c] * row[c]
			}
			if norm = math.Sqrt(norm); norm > 0 {
				for c := range row {
					row[c] /= norm
				}
			}
		}
		// k-means from kmeansTries seedings, each with its own stream (so
		// they run in parallel and repeat); the most rigid grouping wins,
		// ties to the first.
		labels := make([][]int, kmeansTries)
		res := make([]float64, kmeansTries)
		par.For(kmeansTries, 1, func(lo, hi int) {
			for try := lo; try < hi; try++ {
				rng := rand.New(rand.NewPCG(seed0, uint64(k)<<16|uint64(try)))
				labels[try] = kmeans(y, k, k, rng)
				res[try] = residual(m, seed, labels[try])
			}
		})
		best := math.Inf(1)
		for try, r := range res {
			if r < best {
				best, label = r, labels[try]
			}
		}
		met = false
		for next < len(levels) && best <= (1-levels[next])*total {
			met = true
			next++
		}
		if met {
			out = append(out, newGrouping(label))
		}
	}
	if next < len(levels) && label != nil && !met {
		out = append(out, newGrouping(label)) // maxK reached
	}
	if len(out) == 0 { // fewer than two seeds
		out = append(out, grouping{label: make([]int, l), k: 1})
	}
	return out
}

func newGrouping(label []int) grouping {
	k := 0
	for _, g := range label {
		k = max(k, g+1)
	}
	return grouping{label: label, k: k}
}

// residual returns Σ_seeds Σ_f |M_g,f u − v_f|² for each group's best
// rigid motion M_g,f.
func residual(m *skinning.Model, seed []int, label []int) float64 {
	k := 0
	for _, g := range label {
		k = max(k, g+1)
	}
	var e float64
	for f := 0; f < m.F; f++ {
		fits := make([]linalg.RigidFit, k)
		for s, v := range seed {
			fits[label[s]].Add(m.Rest[v], m.Frames[f*m.N+v], 1)
		}
		for g := range fits {
			t := fits[g].Solve()
			for s, v := range seed {
				if label[s] == g {
					e += t.Apply(m.Rest[v]).Sub(m.Frames[f*m.N+v]).Norm2()
				}
			}
		}
	}
	return e
}

// kmeans clusters the n = len(pts)/dim points (rows of pts) into k
// groups: k-means++ seeding, then Lloyd iterations until stable. Groups
// are numbered by first appearance; empty ones are dropped.
func kmeans(pts []float64, dim, k int, rng *rand.Rand) []int {
	n := len(pts) / dim
	row := func(i int) []float64 { return pts[i*dim : (i+1)*dim] }
	dist := func(a, b []float64) float64 {
		var s float64
		for i, x := range a {
			d := x - b[i]
			s += d * d
		}
		return s
	}
	centers := make([]float64, 0, k*dim)
	centers = append(centers, row(rng.IntN(n))...)
	near := make([]float64, n)
	for i := range near {
		near[i] = math.Inf(1)
	}
	for c := 1; c < k; c++ {
		last := centers[(c-1)*dim : c*dim]
		var sum float64
		for i := range near {
			near[i] = math.Min(near[i], dist(row(i), last))
			sum += near[i]
		}
		x := rng.Float64() * sum
		pick := n - 1
		for i := range near {
			x -= near[i]
			if x <= 0 {
				pick = i
				break
			}
		}
		centers = append(centers, row(pick)...)
	}
	label := make([]int, n)
	count := make([]int, k)
	for it := 0; it < 100; it++ {
		changed := false
		for i := 0; i < n; i++ {
			p := row(i)
			best, bd := 0, dist(p, centers[:dim])
			for c := 1; c < k; c++ {
				if d := dist(p, centers[c*dim:(c+1)*dim]); d < bd {
					best, bd = c, d
				}
			}
			changed = changed || best != label[i]
			label[i] = best
		}
		clear(centers)
		clear(count)
		for i := 0; i < n; i++ {
			count[label[i]]++
			ctr := centers[label[i]*dim : (label[i]+1)*dim]
			for d, x := range row(i) {
				ctr[d] += x
			}
		}
		for c := 0; c < k; c++ {
			if count[c] > 0 {
				for d := range centers[c*dim : (c+1)*dim] {
					centers[c*dim+d] /= float64(count[c])
				}
			}
		}
		if !changed && it > 0 {
			break
		}
	}
	id := make([]int, k)
	for c := range id {
		id[c] = -1
	}
	next := 0
	for i, l := range label {
		if id[l] < 0 {
			id[l] = next
			next++
		}
		label[i] = id[l]
	}
	return label
}

// nearestSeeds returns, for every triangle, the seed nearest to it (mean
// distance to its three vertices, reference pose), and for every vertex
// in no triangle its nearest seed (−1 for the others).
func nearestSeeds(rest []linalg.Vec3, tris [][3]int, seed []int) (tri, lone []int32) {
	tri = make([]int32, len(tris))
	par.For(len(tris), 512, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			best, bd := 0, math.Inf(1)
			for s, v := range seed {
				u := rest[v]
				d := u.Dist(rest[tris[t][0]]) + u.Dist(rest[tris[t][1]]) + u.Dist(rest[tris[t][2]])
				if d < bd {
					best, bd = s, d
				}
			}
			tri[t] = int32(best)
		}
	})
	lone = make([]int32, len(rest))
	for i := range lone {
		lone[i] = -1
	}
	used := make([]bool, len(rest))
	for _, tr := range tris {
		used[tr[0]], used[tr[1]], used[tr[2]] = true, true, true
	}
	for i, p := range rest {
		if used[i] {
			continue
		}
		best := 0
		for s, sv := range seed {
			if rest[sv].Dist(p) < rest[seed[best]].Dist(p) {
				best = s
			}
		}
		lone[i] = int32(best)
	}
	return tri, lone
}

// patches assigns every triangle to the class of its nearest seed
// (nearTri, from nearestSeeds) and every vertex to the class most of its
// triangles have (a vertex in no triangle: its nearest seed's, nearLone).
// It returns the vertex and triangle classes.
func patches(tris [][3]int, nearTri, nearLone []int32, class []int) (vertex, tri []int32) {
	tri = make([]int32, len(tris))
	for t, s := range nearTri {
		tri[t] = int32(class[s])
	}
	votes := make([][]int32, len(nearLone))
	for t, tr := range tris {
		for _, i := range tr {
			votes[i] = append(votes[i], tri[t])
		}
	}
	vertex = make([]int32, len(nearLone))
	for i, v := range votes {
		if len(v) == 0 {
			vertex[i] = int32(class[nearLone[i]])
			continue
		}
		sort.Slice(v, func(a, b int) bool { return v[a] < v[b] })
		bestC, bestN, run := v[0], 0, 0
		for j := range v {
			if j > 0 && v[j] == v[j-1] {
				run++
			} else {
				run = 1
			}
			if run > bestN {
				bestC, bestN = v[j], run
			}
		}
		vertex[i] = bestC
	}
	return vertex, tri
}

// kmeansTries is how many k-means++ seedings spectral runs for each k.
const kmeansTries = 24
