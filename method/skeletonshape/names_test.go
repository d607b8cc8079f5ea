package skeletonshape_test

import (
	"context"
	"math"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/forcefield"
)

// TestNames: the force field's skeletons of the generated biped and
// quadruped (y up) are recognised and named — hips, chest and head on
// the plane, the feet below the hips and mirror images, the biped's hands above its feet,
// every limb name on both sides — and the hand is not.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		kind   character.Kind
		layout string
	}{{character.Biped, "biped"}, {character.Quadruped, "quadruped"}, {character.Hand, ""}} {
		r, err := character.Generate(c.kind, character.Options{Vertices: 3000, Frames: 1})
		if err != nil {
			t.Fatal(err)
		}
		var notes []string
		s, err := forcefield.Skeleton(context.Background(), r.Mesh, forcefield.Options{Notes: func(n string) { notes = append(notes, n) }})
		if err != nil {
			t.Fatal(err)
		}
		at := map[string]linalg.Vec3{}
		for j, n := range s.Names {
			if n != "" {
				at[n] = s.Joints[j]
			}
		}
		t.Logf("%s: %v", c.kind, s.Names)
		if c.layout == "" {
			if s.Names != nil {
				t.Errorf("%s named: %v", c.kind, s.Names)
			}
			continue
		}
		for _, want := range []string{"hips", "chest", "head", "thigh.L", "thigh.R", "foot.L", "foot.R", "upper_arm.L", "upper_arm.R", "hand.L", "hand.R"} {
			if _, ok := at[want]; !ok {
				t.Errorf("%s: no joint %q (%v)", c.kind, want, s.Names)
			}
		}
		dl, dr := at["foot.L"].Dist(at["hips"]), at["foot.R"].Dist(at["hips"])
		if at["foot.L"][1] >= at["hips"][1] || at["foot.L"] == at["foot.R"] || math.Abs(dl-dr) > 1e-9 {
			t.Errorf("%s: feet %v %v, hips %v", c.kind, at["foot.L"], at["foot.R"], at["hips"])
		}
		if c.layout == "biped" && at["hand.L"][1] <= at["foot.L"][1] {
			t.Errorf("biped: hand %v below the foot %v", at["hand.L"], at["foot.L"])
		}
	}
}
