package ledeng

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/internal/testkit/rigcheck"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/seq"
)

// TestSeamedCharacters rigs generated characters cut along seams — a
// triangle soup (as Fox.glb), and two pieces split front from back along
// every limb — and checks the rig is the welded character's
// (rigcheck.Seamed).
func TestSeamedCharacters(t *testing.T) {
	rigf := rigWith(Options{})
	t.Run("soup", func(t *testing.T) { rigcheck.Seamed(t, character.Biped, true, 0.3, rigf) })
	t.Run("front/back", func(t *testing.T) { rigcheck.Seamed(t, character.Quadruped, false, 0.3, rigf) })
}

// TestSeamedTube covers the other two ways out on a triangle soup: the
// free form, and a static input's one bone; both cover every vertex.
func TestSeamedTube(t *testing.T) {
	tube := testrig.Tube(t, 15, linalg.Vec3{})
	s := testrig.Play(t, tube)
	soup := character.Soup(s)
	r, err := Rig(context.Background(), soup, Options{Free: true, InitBones: 8})
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
	if len(r.Skin) != soup.N() || rep.RMSEPercent > 0.5 {
		t.Errorf("free form: %d weights for %d vertices, RMSE%% %.3f", len(r.Skin), soup.N(), rep.RMSEPercent)
	}
	rigcheck.SameCopies(t, s, soup, r.Skin)

	still := seq.New(tube.Mesh)
	for f := 0; f < 3; f++ {
		_ = still.AddFrame(tube.Mesh.Verts, "same")
	}
	still = character.Soup(still)
	r, err = Rig(context.Background(), still, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep := rigcheck.Check(t, still, r); rep.Bones != 1 || len(r.Skin) != still.N() || rep.RMSEPercent > 1e-5 { // float32 frames
		t.Errorf("static soup: %d bones, %d weights for %d vertices, RMSE%% %v", rep.Bones, len(r.Skin), still.N(), rep.RMSEPercent)
	}
}
