package sparse

// leafSize is the size below which nested dissection stops splitting.
const leafSize = 48

// Order returns a fill-reducing ordering of a's symmetric pattern by
// nested dissection (George 1973): a breadth-first level structure from a
// pseudo-peripheral vertex splits each part at its middle level, which
// becomes a separator ordered after both halves. On mesh graphs the
// levels are short rings, so fill grows like n·log n. perm[k] is the
// original index of the k-th unknown.
func Order(a *CSR) []int {
	n := a.N
	perm := make([]int, 0, n)
	region := make([]int32, n) // current part of each vertex; -1 once ordered
	level := make([]int32, n)
	queue := make([]int, 0, n)
	next := int32(1)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var dissect func(part []int, id int32)
	dissect = func(part []int, id int32) {
		if len(part) <= leafSize {
			perm = append(perm, part...)
			for _, v := range part {
				region[v] = -1
			}
			return
		}
		// Split into connected components first.
		for _, v := range part {
			level[v] = -1
		}
		var comps [][]int
		for _, s := range part {
			if level[s] >= 0 {
				continue
			}
			comp := bfs(a, s, id, region, level, queue[:0])
			comps = append(comps, append([]int(nil), comp...))
		}
		if len(comps) > 1 {
			for _, c := range comps {
				cid := next
				next++
				for _, v := range c {
					region[v] = cid
				}
				dissect(c, cid)
			}
			return
		}
		// A pseudo-peripheral start: the last vertex reached, twice.
		comp := comps[0]
		start := comp[len(comp)-1]
		for it := 0; it < 2; it++ {
			for _, v := range comp {
				level[v] = -1
			}
			order := bfs(a, start, id, region, level, queue[:0])
			start = order[len(order)-1]
		}
		for _, v := range comp {
			level[v] = -1
		}
		order := bfs(a, start, id, region, level, queue[:0])
		// The separator is the level holding the median vertex.
		mid := level[order[len(order)/2]]
		var lo, hi, sep []int
		for _, v := range order {
			switch l := level[v]; {
			case l < mid:
				lo = append(lo, v)
			case l > mid:
				hi = append(hi, v)
			default:
				sep = append(sep, v)
			}
		}
		if len(lo) == 0 || len(hi) == 0 {
			perm = append(perm, order...) // a clique or a path end: no split
			for _, v := range order {
				region[v] = -1
			}
			return
		}
		for _, half := range [][]int{lo, hi} {
			hid := next
			next++
			for _, v := range half {
				region[v] = hid
			}
			dissect(half, hid)
		}
		perm = append(perm, sep...)
		for _, v := range sep {
			region[v] = -1
		}
	}
	dissect(all, 0)
	return perm
}

// bfs visits the vertices of region id reachable from s, setting their
// levels, and returns them in visiting order (in queue's storage).
func bfs(a *CSR, s int, id int32, region, level []int32, queue []int) []int {
	level[s] = 0
	queue = append(queue, s)
	for q := 0; q < len(queue); q++ {
		v := queue[q]
		for k := a.RowPtr[v]; k < a.RowPtr[v+1]; k++ {
			w := int(a.Col[k])
			if region[w] == id && level[w] < 0 {
				level[w] = level[v] + 1
				queue = append(queue, w)
			}
		}
	}
	return queue
}
