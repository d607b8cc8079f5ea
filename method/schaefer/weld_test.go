package schaefer

import (
	"context"
	"fmt"
	"testing"

	"github.com/meshrig/meshrig/internal/rigcheck"
	"github.com/meshrig/meshrig/internal/testmesh"
	"github.com/meshrig/meshrig/internal/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

// TestSeamedCharacters rigs generated characters cut along seams — a
// triangle soup (as Fox.glb), and two pieces split front from back along
// every limb — and checks the rig is the welded character's
// (rigcheck.Seamed).
func TestSeamedCharacters(t *testing.T) {
	for _, tc := range []struct {
		kind testmesh.Kind
		soup bool
	}{{testmesh.Quadruped, true}, {testmesh.Biped, false}} {
		t.Run(fmt.Sprintf("%s/soup=%v", tc.kind, tc.soup), func(t *testing.T) {
			rigcheck.Seamed(t, tc.kind, tc.soup, 0.5, rigWith(Options{}))
		})
	}
}

// TestSeamedFreeForm: the free form of a triangle soup covers every
// vertex, copies alike.
func TestSeamedFreeForm(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{}))
	soup := testmesh.Soup(s)
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
