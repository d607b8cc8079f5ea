package forcefield

// candGraph is the thinned voxel set seen as joint candidates joined by
// chains of non-candidate voxels (§3.3: "a breadth-first search
// algorithm is applied to connect those candidates").
type candGraph struct {
	// cands are the candidates' interior indices, ascending; num maps an
	// interior index to its candidate number, or -1.
	cands []int32
	num   []int32
	links []link
	// branch marks the candidates where the thinned set forks (more than
	// two neighbours), end those where a curve ends (one neighbour).
	branch, end []bool
}

// link joins candidates a and b: through path, the chain's voxels
// (interior indices) in order from a's side, or directly when path is
// empty (the candidates are neighbours). a == b is a chain that leaves
// a candidate and returns to it.
type link struct {
	a, b int
	path []int32
}

// candidates builds the candidate graph of the thinned set keep. The
// candidates are the local minima, the points with more than two
// neighbours (§3.3), and any point with fewer (an end or a lone point,
// which thinning keeps only when it is a minimum anyway). Every other
// kept point then has exactly two neighbours, so the rest falls apart
// into simple chains that run from one candidate to another. A closed
// chain that meets no candidate (a ring with no minimum on it) gets its
// lowest-force point as a candidate, so the ring stays a loop.
func (f *field) candidates(keep, minima []bool) *candGraph {
	n := len(f.vox)
	isCand := make([]bool, n)
	fork := make([]bool, n)
	end := make([]bool, n)
	for i := range f.vox {
		if !keep[i] {
			continue
		}
		deg := 0
		f.eachKept(keep, i, func(int32) { deg++ })
		isCand[i] = minima[i] || deg != 2
		fork[i] = deg > 2
		end[i] = deg == 1
	}
	seen := make([]bool, n)
	var comp []int32
	for i := range f.vox {
		if !keep[i] || isCand[i] || seen[i] {
			continue
		}
		comp = f.chain(keep, isCand, seen, int32(i), comp[:0])
		touches := false
		lowest := comp[0]
		for _, v := range comp {
			f.eachKept(keep, int(v), func(j int32) { touches = touches || isCand[j] })
			if f.less(v, lowest) {
				lowest = v
			}
		}
		if !touches {
			isCand[lowest] = true
		}
	}

	cg := &candGraph{num: make([]int32, n)}
	for i := range cg.num {
		cg.num[i] = -1
		if isCand[i] {
			cg.num[i] = int32(len(cg.cands))
			cg.cands = append(cg.cands, int32(i))
			cg.branch = append(cg.branch, fork[i])
			cg.end = append(cg.end, end[i])
		}
	}
	for c, i := range cg.cands {
		f.eachKept(keep, int(i), func(j int32) {
			if d := int(cg.num[j]); d > c {
				cg.links = append(cg.links, link{a: c, b: d})
			}
		})
	}
	clear(seen)
	for i := range f.vox {
		if !keep[i] || isCand[i] || seen[i] {
			continue
		}
		comp = f.chain(keep, isCand, seen, int32(i), comp[:0])
		cg.links = append(cg.links, f.chainLinks(keep, cg.num, comp)...)
	}
	return cg
}

// chainLinks orders a chain from its end that touches a candidate and
// links the candidates at its two ends; a candidate touched anywhere
// else (not expected of a thinned set) is linked to the first end
// through the chain's prefix.
func (f *field) chainLinks(keep []bool, num []int32, comp []int32) []link {
	start := int32(-1)
	for _, v := range comp {
		if (start < 0 || v < start) && len(f.touching(keep, num, v)) > 0 {
			start = v
		}
	}
	if start < 0 {
		return nil
	}
	path := f.order(keep, comp, start)
	first := f.touching(keep, num, path[0])
	a := first[0]
	b := a
	if len(path) == 1 && len(first) > 1 {
		b = first[1]
	} else {
		for _, c := range f.touching(keep, num, path[len(path)-1]) {
			b = c
			if c != a {
				break
			}
		}
	}
	out := []link{{a: a, b: b, path: path}}
	for pos, v := range path {
		for _, c := range f.touching(keep, num, v) {
			if c != a && c != b {
				out = append(out, link{a: a, b: c, path: path[:pos+1]})
			}
		}
	}
	return out
}

// touching returns the candidate numbers next to interior voxel v,
// ascending.
func (f *field) touching(keep []bool, num []int32, v int32) []int {
	var out []int
	f.eachKept(keep, int(v), func(j int32) {
		if num[j] >= 0 {
			out = append(out, int(num[j]))
		}
	})
	for i := 1; i < len(out); i++ {
		for k := i; k > 0 && out[k] < out[k-1]; k-- {
			out[k], out[k-1] = out[k-1], out[k]
		}
	}
	return out
}

// chain collects the 26-connected non-candidate kept voxels around seed
// (breadth first), marking them seen.
func (f *field) chain(keep, isCand, seen []bool, seed int32, out []int32) []int32 {
	seen[seed] = true
	out = append(out, seed)
	for q := len(out) - 1; q < len(out); q++ {
		f.eachKept(keep, int(out[q]), func(j int32) {
			if !isCand[j] && !seen[j] {
				seen[j] = true
				out = append(out, j)
			}
		})
	}
	return out
}

// order returns comp breadth first from start, which walks a simple
// chain from that end to the other.
func (f *field) order(keep []bool, comp []int32, start int32) []int32 {
	in := make(map[int32]bool, len(comp))
	for _, v := range comp {
		in[v] = true
	}
	out := make([]int32, 0, len(comp))
	out = append(out, start)
	delete(in, start)
	for q := 0; q < len(out); q++ {
		f.eachKept(keep, int(out[q]), func(j int32) {
			if in[j] {
				delete(in, j)
				out = append(out, j)
			}
		})
	}
	return out
}

// eachKept calls fn with each kept 26-neighbour of interior voxel i, in
// neighbour order.
func (f *field) eachKept(keep []bool, i int, fn func(j int32)) {
	id := int(f.vox[i])
	for _, o := range f.g.off {
		if j := f.at[id+o]; j >= 0 && keep[j] {
			fn(j)
		}
	}
}
