package rig

import (
	"fmt"
	"math"
	"sort"
)

// MaxInfluences is the most joints that move one vertex.
const MaxInfluences = 4

// Influence is the skinning of one vertex: up to four joints and their
// weights. Unused slots have weight 0 (and joint 0). Weights are
// non-negative and sum to 1.
type Influence struct {
	Joint  [MaxInfluences]JointID
	Weight [MaxInfluences]float64
}

// Skin holds one Influence per rest-mesh vertex.
type Skin []Influence

// Validate checks every vertex: joints in [0, joints), weights finite,
// non-negative and summing to 1 within 1e-6, and no joint listed twice
// with weight.
func (s Skin) Validate(joints int) error {
	for i, in := range s {
		var sum float64
		for k, w := range in.Weight {
			j := in.Joint[k]
			if math.IsNaN(w) || w < 0 {
				return fmt.Errorf("vertex %d: weight %v of joint %d is negative or NaN", i+1, w, j)
			}
			if j < 0 || int(j) >= joints {
				return fmt.Errorf("vertex %d: joint %d out of range (%d joints)", i+1, j, joints)
			}
			if w > 0 {
				for l := 0; l < k; l++ {
					if in.Joint[l] == j && in.Weight[l] > 0 {
						return fmt.Errorf("vertex %d lists joint %d twice", i+1, j)
					}
				}
			}
			sum += w
		}
		if math.Abs(sum-1) > 1e-6 {
			return fmt.Errorf("vertex %d: weights sum to %v, not 1", i+1, sum)
		}
	}
	return nil
}

// FromDense builds a skin from dense per-vertex weights: w has n·joints
// entries, vertex i's weight for joint j at w[i*joints+j]. It keeps the
// largest maxInf (≤ 4) positive weights of each vertex and renormalizes
// them to sum to 1. A vertex with no positive weight goes to joint 0.
func FromDense(w []float64, n, joints, maxInf int) Skin {
	if maxInf <= 0 || maxInf > MaxInfluences {
		maxInf = MaxInfluences
	}
	s := make(Skin, n)
	idx := make([]int, joints)
	for i := 0; i < n; i++ {
		row := w[i*joints : (i+1)*joints]
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return row[idx[a]] > row[idx[b]] })
		var in Influence
		for k := 0; k < maxInf && k < joints; k++ {
			if v := row[idx[k]]; v > 0 && !math.IsNaN(v) {
				in.Joint[k] = JointID(idx[k])
				in.Weight[k] = v
			}
		}
		s[i] = in.Normalized()
	}
	return s
}

// Normalized returns in with its weights scaled to sum to 1, sorted by
// decreasing weight; all weight on its first joint when the sum is zero.
func (in Influence) Normalized() Influence {
	var sum float64
	for _, w := range in.Weight {
		if w > 0 {
			sum += w
		}
	}
	if sum <= 0 || math.IsInf(sum, 0) {
		return Influence{Joint: [MaxInfluences]JointID{in.Joint[0]}, Weight: [MaxInfluences]float64{1}}
	}
	var out Influence
	for k, w := range in.Weight {
		if w > 0 {
			out.Joint[k] = in.Joint[k]
			out.Weight[k] = w / sum
		}
	}
	// Insertion sort by decreasing weight: four entries.
	for a := 1; a < MaxInfluences; a++ {
		for b := a; b > 0 && out.Weight[b] > out.Weight[b-1]; b-- {
			out.Weight[b], out.Weight[b-1] = out.Weight[b-1], out.Weight[b]
			out.Joint[b], out.Joint[b-1] = out.Joint[b-1], out.Joint[b]
		}
	}
	return out
}

// Dominant returns the joint with the largest weight.
func (in Influence) Dominant() JointID {
	best := 0
	for k := 1; k < MaxInfluences; k++ {
		if in.Weight[k] > in.Weight[best] {
			best = k
		}
	}
	return in.Joint[best]
}
