package metric

import (
	"testing"

	"github.com/meshrig/meshrig/rig"
)

// TestMatchJoints: each joint of a takes the joint of b that weighs most
// on its own vertices, whatever the numbering, and mismatched inputs are
// errors.
func TestMatchJoints(t *testing.T) {
	one := func(j rig.JointID) rig.Influence {
		return rig.Influence{Joint: [4]rig.JointID{j}, Weight: [4]float64{1}}
	}
	two := func(j, k rig.JointID, w float64) rig.Influence {
		return rig.Influence{Joint: [4]rig.JointID{j, k}, Weight: [4]float64{w, 1 - w}}
	}
	// Six vertices along a limb: a has three joints (0 upper, 1 lower,
	// 2 unused), b two joints numbered the other way round.
	a := rig.Skin{one(0), one(0), two(0, 1, 0.6), two(0, 1, 0.3), one(1), one(1)}
	b := rig.Skin{one(1), one(1), one(1), one(0), one(0), one(0)}
	got, err := MatchJoints(a, 3, b, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []rig.JointID{1, 0, 0}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("match %v, want %v", got, want)
	}
	if _, err := MatchJoints(a[:5], 3, b, 2); err == nil {
		t.Error("skins of different sizes matched")
	}
	if _, err := MatchJoints(a, 1, b, 2); err == nil {
		t.Error("a joint index beyond the count was accepted")
	}
}
