package contraction

import (
	"context"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// embed turns the simplified graph into the skeleton in unit-sphere
// coordinates. Each joint moves to the centre of its mesh region, the
// surface samples whose graph vertices collapsed into it (the Collada
// paper §5: "every control point is shifted into the center of its local
// mesh area"), weighting samples by their area so uneven sampling does
// not pull the centre. The root is the joint whose region encloses the
// most volume (§5: "the control point which represents the largest
// volume"), that volume being the cones from the joint to its region's
// surface, approximated by Σ area·distance/3.
func embed(g *graph, s *simplifier) *static.Skeleton {
	n := len(g.pos)
	index := make([]int32, n) // node → joint
	var joints int32
	for i := range index {
		index[i] = -1
		if s.alive[i] {
			index[i] = joints
			joints++
		}
	}
	region := make([]int32, len(g.sample)) // sample → joint
	for k, v := range g.at {
		region[k] = index[s.find(v)]
	}
	sum := make([]linalg.Vec3, joints)
	w := make([]float64, joints)
	for k, j := range region {
		// A sample with no area still counts a little, so no region is
		// left without a centre.
		m := g.mass[k] + 1e-12
		sum[j] = sum[j].Add(g.sample[k].Scale(m))
		w[j] += m
	}
	sk := &static.Skeleton{Joints: make([]linalg.Vec3, joints)}
	for j := range sk.Joints {
		sk.Joints[j] = sum[j].Scale(1 / w[j])
	}
	vol := make([]float64, joints)
	for k, j := range region {
		vol[j] += g.mass[k] * g.sample[k].Dist(sk.Joints[j]) / 3
	}
	for j := range vol {
		if vol[j] > vol[sk.Root] {
			sk.Root = j
		}
	}
	for i, nb := range s.adj {
		if !s.alive[i] {
			continue
		}
		for _, k := range nb {
			if int32(i) < k {
				sk.Edges = append(sk.Edges, [2]int{int(index[i]), int(index[k])})
			}
		}
	}
	return sk
}

// splitBones adds joints at the middle of the longest bones until the
// skeleton has want joints. The contracted mesh of a coarse or short
// shape can collapse to fewer nodes than asked for; splitting the
// longest bones spends the missing joints where a bone would otherwise
// have to bend the most mesh around one joint. Ties go to the lower
// edge index, so the result is deterministic. A heap keyed by length
// makes each split cost O(log bones) (a scan per split made 20,000
// joints quadratic). It returns the number of joints added, or ctx's
// error when ctx ends.
func splitBones(ctx context.Context, sk *static.Skeleton, want int) (int, error) {
	if len(sk.Joints) >= want || len(sk.Edges) == 0 {
		return 0, nil
	}
	length := func(k int) float64 { return sk.Joints[sk.Edges[k][0]].Dist(sk.Joints[sk.Edges[k][1]]) }
	h := minHeap[bone]{items: make([]bone, len(sk.Edges)), less: boneLess}
	for k := range sk.Edges {
		h.items[k] = bone{length(k), int32(k)}
	}
	h.init()
	added := 0
	for len(sk.Joints) < want {
		if added%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return added, err
			}
		}
		// Every bone has exactly one entry: the one popped is replaced
		// by its two halves, so no entry is ever stale.
		k := int(h.pop().edge)
		e := sk.Edges[k]
		m := len(sk.Joints)
		sk.Joints = append(sk.Joints, sk.Joints[e[0]].Add(sk.Joints[e[1]]).Scale(0.5))
		sk.Edges[k] = [2]int{e[0], m}
		sk.Edges = append(sk.Edges, [2]int{m, e[1]})
		h.push(bone{length(k), int32(k)})
		h.push(bone{length(len(sk.Edges) - 1), int32(len(sk.Edges) - 1)})
		added++
	}
	return added, nil
}

// bone is a skeleton edge's index with its length.
type bone struct {
	length float64
	edge   int32
}

// boneLess puts the longest bone first, ties to the lower edge index.
func boneLess(a, b bone) bool {
	if a.length != b.length {
		return a.length > b.length
	}
	return a.edge < b.edge
}
