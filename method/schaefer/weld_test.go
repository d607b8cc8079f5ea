package schaefer

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/internal/testkit/rigcheck"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

// TestSeamedCharacters rigs generated characters cut along seams — a
// triangle soup (as Fox.glb), and two pieces split front from back along
// every limb — and checks the rig is the welded character's
// (rigcheck.Seamed).
func TestSeamedCharacters(t *testing.T) {
	rigf := rigWith(Options{})
	t.Run("soup", func(t *testing.T) { rigcheck.Seamed(t, character.Quadruped, true, 0.5, rigf) })
	t.Run("front/back", func(t *testing.T) { rigcheck.Seamed(t, character.Biped, false, 0.5, rigf) })
}

// TestSeamedFreeForm: the free form of a triangle soup covers every
// vertex, copies alike.
func TestSeamedFreeForm(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{}))
	soup := character.Soup(s)
	r, err := Rig(context.Background(), soup, Options{Bones: 3, Free: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	rep, err := metric.Compare(soup, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Skin) != soup.N() || rep.RMSEPercent > 1 {
		t.Errorf("%d weights for %d vertices, RMSE%% %.3f", len(r.Skin), soup.N(), rep.RMSEPercent)
	}
	rigcheck.SameCopies(t, s, soup, r.Skin)
}
