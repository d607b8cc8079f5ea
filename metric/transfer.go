package metric

import (
	"fmt"

	"github.com/meshrig/meshrig/rig"
)

// MatchJoints pairs every joint of skin a (na joints) with the joint of
// skin b (nb joints) whose influence overlaps its own the most:
// argmax_j Σ_i w_a(i, k)·w_b(i, j) over the vertices both skins cover.
// It is how the pose test drives a skeleton found on a static mesh with a
// ground-truth motion: each found joint takes the motion of the true
// joint that moves the same part of the mesh, whatever the two
// skeletons' joint counts and positions. A joint of a with no weight
// anywhere, or no overlap, is matched to b's joint 0; ties go to the
// lower index. The skins must cover the same vertices.
func MatchJoints(a rig.Skin, na int, b rig.Skin, nb int) ([]rig.JointID, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("skins cover %d and %d vertices", len(a), len(b))
	}
	if err := a.Validate(na); err != nil {
		return nil, err
	}
	if err := b.Validate(nb); err != nil {
		return nil, err
	}
	overlap := make([]float64, na*nb)
	for i := range a {
		for s, wa := range a[i].Weight {
			if wa == 0 {
				continue
			}
			k := int(a[i].Joint[s])
			for t, wb := range b[i].Weight {
				if wb > 0 {
					overlap[k*nb+int(b[i].Joint[t])] += wa * wb
				}
			}
		}
	}
	match := make([]rig.JointID, na)
	for k := range match {
		best := 0
		for j := 1; j < nb; j++ {
			if overlap[k*nb+j] > overlap[k*nb+best] {
				best = j
			}
		}
		match[k] = rig.JointID(best)
	}
	return match, nil
}
