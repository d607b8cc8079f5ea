package ledeng

import (
	"context"
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
)

// fitClusters fits one rigid transform per cluster and frame, mapping the
// rest positions of the cluster's vertices onto their frame positions.
// The result is F·nc, frame-major.
func (p *problem) fitClusters(label []int32, nc int) []linalg.Affine {
	m := make([]linalg.Affine, p.f*nc)
	par.For(p.f, 1, func(lo, hi int) {
		fits := make([]linalg.RigidFit, nc)
		for f := lo; f < hi; f++ {
			clear(fits)
			fr := p.frame(f)
			for i, l := range label {
				if l >= 0 { // -1: dropped, awaiting reassignment
					fits[l].Add(p.rest[i], fr[i], 1)
				}
			}
			for j := range fits {
				m[f*nc+j] = fits[j].Solve()
			}
		}
	})
	return m
}

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
	u := p.rest[i]
	var e float64
	for f := 0; f < p.f; f++ {
		e += mt[f].Apply(u).Sub(p.frames[f*p.n+i]).Norm2()
	}
	return e
}

// assign relabels every vertex to the cluster that reconstructs it best
// (the E-step) and returns how many labels changed.
func (p *problem) assign(label []int32, m []linalg.Affine, nc int) int {
	mt := transpose(m, p.f, nc)
	changed := make([]int, (p.n+1023)/1024)
	par.For(p.n, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			best, bestE := label[i], math.Inf(1)
			for j := 0; j < nc; j++ {
				if e := p.vertexError(i, mt[j*p.f:(j+1)*p.f]); e < bestE {
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
func (p *problem) split(label []int32, j int32, newLabel int32, mt []linalg.Affine) bool {
	var members []int
	var o linalg.Vec3
	for i, l := range label {
		if l == j {
			members = append(members, i)
			o = o.Add(p.rest[i])
		}
	}
	if len(members) < 2 {
		return false
	}
	o = o.Scale(1 / float64(len(members)))
	seed, best := members[0], -1.0
	for _, i := range members {
		e := math.Sqrt(p.vertexError(i, mt) / float64(p.f)) // Eq. 1b
		if s := p.rest[i].Dist(o) * e; s > best {
			seed, best = i, s
		}
	}
	us := p.rest[seed]
	sort.SliceStable(members, func(a, b int) bool {
		return p.rest[members[a]].Dist(us) < p.rest[members[b]].Dist(us)
	})
	for _, i := range members[:len(members)/2] {
		label[i] = newLabel
	}
	return true
}

// clusterLBG runs the motion-driven LBG clustering of §4 up to target
// clusters and returns the labels and the cluster count.
func (p *problem) clusterLBG(ctx context.Context, target int, progress func(done, total int)) ([]int32, int, error) {
	label := make([]int32, p.n)
	nc := 1
	minSize := int(math.Ceil(0.001 * float64(p.n))) // 0.1% of the vertices
	if minSize < 1 {
		minSize = 1
	}
	m := p.fitClusters(label, nc)
	for nc < target {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		// Split the clusters with the largest error first, as many as
		// needed to reach target (all of them while doubling fits).
		mt := transpose(m, p.f, nc)
		errs := make([]float64, nc)
		for i, l := range label {
			errs[l] += p.vertexError(i, mt[int(l)*p.f:(int(l)+1)*p.f])
		}
		order := make([]int, nc)
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return errs[order[a]] > errs[order[b]] })
		want := min(nc, target-nc)
		prev, next := nc, nc
		for _, j := range order[:want] {
			if p.split(label, int32(j), int32(next), mt[j*p.f:(j+1)*p.f]) {
				next++
			}
		}
		if next == nc {
			break // nothing left to split
		}
		nc = next
		// EM refinement.
		for it := 0; it < 8; it++ {
			m = p.fitClusters(label, nc)
			changed := p.assign(label, m, nc)
			if k := compact(label, nc, minSize); k != nc {
				nc = k
				m = p.fitClusters(label, nc)
				p.assign(label, m, nc)
			}
			if changed <= p.n/1000 {
				break
			}
		}
		m = p.fitClusters(label, nc)
		if progress != nil {
			progress(min(nc, target), target)
		}
		if nc <= prev { // split clusters die again: the motion has no more parts
			break
		}
	}
	return label, nc, nil
}
