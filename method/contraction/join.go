package contraction

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/spantree"
)

// maxComponents bounds the separate pieces joinComponents links: the
// candidate links are all pairs of pieces.
const maxComponents = 2000

// joinComponents returns the edges that make the graph of ncomp
// components connected (the Collada paper §3.1, joining): the links of a
// minimum spanning tree over the components, each the closest pair of
// vertices between its two components. The paper joins each component
// with the vertices within its joining distance (the distance to the
// nearest other component); a spanning tree of those distances joins
// the same closest pairs but also connects groups of components that are
// only near each other in pairs, and adds no loops.
//
// The tree comes from Kruskal's algorithm run lazily: pairs are taken in
// order of their bounding-box distance, a lower bound, and the exact
// closest-pair distance (a k-d tree query per vertex of the smaller
// component) is computed only for pairs that reach the front. It returns
// ctx's error when ctx ends.
func joinComponents(ctx context.Context, pos []linalg.Vec3, comp []int, ncomp int) ([][2]int, error) {
	if ncomp <= 1 {
		return nil, nil
	}
	if ncomp > maxComponents {
		return nil, fmt.Errorf("contraction: the mesh has %d separate pieces (at most %d are joined); weld duplicate vertices first", ncomp, maxComponents)
	}
	members := make([][]int32, ncomp)
	lo := make([]linalg.Vec3, ncomp)
	hi := make([]linalg.Vec3, ncomp)
	for i, c := range comp {
		if len(members[c]) == 0 {
			lo[c], hi[c] = pos[i], pos[i]
		}
		members[c] = append(members[c], int32(i))
		lo[c], hi[c] = lo[c].Min(pos[i]), hi[c].Max(pos[i])
	}
	type pair struct {
		a, b int32
		lb   float64
	}
	pairs := make([]pair, 0, ncomp*(ncomp-1)/2)
	for a := 0; a < ncomp; a++ {
		for b := a + 1; b < ncomp; b++ {
			var d2 float64
			for k := 0; k < 3; k++ {
				gap := math.Max(lo[a][k]-hi[b][k], lo[b][k]-hi[a][k])
				if gap > 0 {
					d2 += gap * gap
				}
			}
			pairs = append(pairs, pair{int32(a), int32(b), d2})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].lb != pairs[j].lb {
			return pairs[i].lb < pairs[j].lb
		}
		return pairs[i].a < pairs[j].a || pairs[i].a == pairs[j].a && pairs[i].b < pairs[j].b
	})
	sets := spantree.NewSets(ncomp)
	trees := make([]*kdTree, ncomp)
	closest := func(a, b int) link {
		if len(members[a]) > len(members[b]) {
			a, b = b, a
		}
		if trees[b] == nil {
			trees[b] = newKDTree(pos, members[b])
		}
		best := link{d2: math.Inf(1)}
		for _, i := range members[a] {
			if j, d2, ok := trees[b].nearest(pos[i], best.d2); ok {
				best = link{d2: d2, i: i, j: j}
			}
		}
		return best
	}
	exact := minHeap[link]{less: linkLess}
	var joins [][2]int
	next := 0
	for step := 1; len(joins) < ncomp-1; step++ {
		if step%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if exact.Len() > 0 && (next == len(pairs) || exact.items[0].d2 <= pairs[next].lb) {
			l := exact.pop()
			if sets.Union(comp[l.i], comp[l.j]) {
				joins = append(joins, [2]int{int(l.i), int(l.j)})
			}
			continue
		}
		if next == len(pairs) {
			break // cannot happen: every pair was offered
		}
		p := pairs[next]
		next++
		if sets.Find(int(p.a)) == sets.Find(int(p.b)) {
			continue
		}
		exact.push(closest(int(p.a), int(p.b)))
	}
	return joins, nil
}

// link is a candidate join: vertices i and j at squared distance d2.
type link struct {
	d2   float64
	i, j int32
}

func linkLess(a, b link) bool {
	if a.d2 != b.d2 {
		return a.d2 < b.d2
	}
	return a.i < b.i || a.i == b.i && a.j < b.j
}
