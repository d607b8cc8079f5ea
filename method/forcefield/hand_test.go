package forcefield

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
)

// TestHandFingers: the generated hand keeps its fingers at every vertex
// count. Its fingers lie side by side, about three radii apart, and a
// plate test that counted every interior voxel in its ball saw the row
// as one plate (spread in two directions, thin in the third), so
// dropPlates cleared the fingers' force minima: at 4000 vertices three
// fingers lost their middle joints, from 12000 on three fingers had no
// joint at all (6–8 joints, joint error 8–16%). Every outer joint of a
// finger (the two beyond its base in the palm) must have a joint of the
// skeleton within 0.007, the pinky's radius at its base (measured
// 0.002–0.003), and the joint error stay at most 5% (measured 3.5–4.2%).
// The thumb is left out: its joints sit about 0.013 off the true ones,
// before this fix as after.
func TestHandFingers(t *testing.T) {
	if testing.Short() {
		t.Skip("four force-field runs up to 32000 vertices")
	}
	const reach = 0.007 // the pinky's radius at its base, in the hand's units
	for _, nv := range []int{4000, 12000, 20000, 32000} {
		r, err := character.Generate(character.Hand, character.Options{Vertices: nv, Frames: 1})
		if err != nil {
			t.Fatal(err)
		}
		s, err := Skeleton(context.Background(), r.Mesh, Options{})
		if err != nil {
			t.Fatal(err)
		}
		truth := metric.Heads(&r.Skeleton)
		je := metric.JointError(s.Joints, truth, mesh.Diagonal(r.Mesh.Verts))
		t.Logf("hand %d: %d joints (truth %d), joint error %.2f%%", nv, len(s.Joints), len(truth), je)
		if je > 5 {
			t.Errorf("hand %d: joint error %.2f%%, want at most 5", nv, je)
		}
		worst := 0.0
		for j, jt := range r.Skeleton.Joints {
			if jt.Parent < 0 || r.Skeleton.Joints[jt.Parent].Parent < 0 || strings.HasPrefix(jt.Name, "thumb") {
				continue
			}
			near := math.Inf(1)
			for _, p := range s.Joints {
				near = math.Min(near, p.Dist(truth[j]))
			}
			worst = math.Max(worst, near)
			if near > reach {
				t.Errorf("hand %d: %s has no joint within %g (nearest %.4f)", nv, jt.Name, reach, near)
			}
		}
		t.Logf("hand %d: outer finger joints within %.4f of a joint", nv, worst)
	}
}
