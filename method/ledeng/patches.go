package ledeng

import "math"

// patches splits every cluster into its connected components over the
// mesh edges (§4, "connected patches generation"), one bone each. Patches
// smaller than minSize join the adjacent patch whose cluster fits them
// best; an isolated small patch (a tiny separate shell) stays a bone so
// no vertex is left without one. It returns the bone of every vertex and
// the bone count.
func (p *problem) patches(label []int32, nc, minSize int) ([]int32, int) {
	patch := make([]int32, p.N)
	for i := range patch {
		patch[i] = -1
	}
	var size []int
	var clusterOf []int32
	queue := make([]int, 0, p.N)
	for s := 0; s < p.N; s++ {
		if patch[s] >= 0 {
			continue
		}
		id := int32(len(size))
		patch[s] = id
		queue = append(queue[:0], s)
		for q := 0; q < len(queue); q++ {
			for _, k := range p.Top.Neighbors(queue[q]) {
				if patch[k] < 0 && label[k] == label[s] {
					patch[k] = id
					queue = append(queue, k)
				}
			}
		}
		size = append(size, len(queue))
		clusterOf = append(clusterOf, label[s])
	}
	m := p.FitClusters(label, nc)
	mt := transpose(m, p.F, nc)
	members := make([][]int, len(size))
	for i, id := range patch {
		members[id] = append(members[id], i)
	}
	// Merge small patches into the best-fitting neighbour.
	target := make([]int32, len(size))
	for id := range target {
		target[id] = int32(id)
	}
	for id := range size {
		if size[id] >= minSize {
			continue
		}
		self := find(target, int32(id))
		best, bestE := int32(-1), math.Inf(1)
		seen := map[int32]bool{}
		for _, i := range members[id] {
			for _, k := range p.Top.Neighbors(i) {
				nb := find(target, patch[k])
				if nb == self || seen[nb] {
					continue
				}
				seen[nb] = true
				c := int(clusterOf[nb])
				var e float64
				for _, v := range members[id] {
					e += p.vertexError(v, mt[c*p.F:(c+1)*p.F])
				}
				if e < bestE {
					best, bestE = nb, e
				}
			}
		}
		if best >= 0 {
			target[self] = best
			size[best] += size[id]
		}
	}
	// Number the surviving patches in order of first vertex.
	bone := make([]int32, p.N)
	ids := make([]int32, len(size))
	for i := range ids {
		ids[i] = -1
	}
	nb := int32(0)
	for i := 0; i < p.N; i++ {
		r := find(target, patch[i])
		if ids[r] < 0 {
			ids[r] = nb
			nb++
		}
		bone[i] = ids[r]
	}
	return bone, int(nb)
}

// find follows merge links to a surviving patch.
func find(target []int32, id int32) int32 {
	for target[id] != id {
		id = target[id]
	}
	return id
}
