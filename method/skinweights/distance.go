package skinweights

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// distance binds every vertex to its S = min(maxInf, joints) nearest
// joints with Liu et al. 2003 §3.4's weights
//
//	ω_j = (D − d_j) / ((S − 1)·D),  D = Σ d_j over the S joints,
//
// which sum to one and favour nearer joints. With S = 1, or a vertex on
// all S joints at once (D = 0), they share equally.
func distance(pos, joints []linalg.Vec3, maxInf int) rig.Skin {
	s := min(maxInf, len(joints))
	skin := make(rig.Skin, len(pos))
	par.For(len(pos), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var near nearestK
			near.init(s)
			for j, c := range joints {
				near.offer(j, pos[i].Dist(c))
			}
			var in rig.Influence
			var sum float64
			for k := 0; k < s; k++ {
				sum += near.d[k]
			}
			for k := 0; k < s; k++ {
				in.Joint[k] = rig.JointID(near.j[k])
				switch {
				case s == 1:
					in.Weight[k] = 1
				case sum == 0:
					in.Weight[k] = 1 / float64(s)
				default:
					in.Weight[k] = (sum - near.d[k]) / (float64(s-1) * sum)
				}
			}
			skin[i] = in.Normalized()
		}
	})
	return skin
}

// nearestK keeps the k ≤ 4 smallest distances offered, sorted
// ascending; on a tie the joint offered first stays ahead.
type nearestK struct {
	k, n int
	j    [rig.MaxInfluences]int
	d    [rig.MaxInfluences]float64
}

func (t *nearestK) init(k int) { t.k, t.n = k, 0 }

func (t *nearestK) offer(j int, d float64) {
	if t.n == t.k && d >= t.d[t.n-1] {
		return
	}
	if t.n < t.k {
		t.n++
	}
	x := t.n - 1
	for ; x > 0 && t.d[x-1] > d; x-- {
		t.j[x], t.d[x] = t.j[x-1], t.d[x-1]
	}
	t.j[x], t.d[x] = j, d
}
