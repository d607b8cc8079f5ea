package usd

import (
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// testRigs are a generated biped, the three-bone tube (quads) moved off
// the origin with a second clip at another rate and names USD cannot
// hold as identifiers, and a generated snake.
func testRigs(t *testing.T) map[string]*rig.Rig {
	t.Helper()
	out := map[string]*rig.Rig{}
	for _, k := range []character.Kind{character.Biped, character.Snake} {
		r, err := character.Generate(k, character.Options{Frames: 8, Vertices: 800})
		if err != nil {
			t.Fatal(err)
		}
		out[string(k)] = r
	}
	tube := testrig.Tube(t, 6, linalg.Vec3{10, -4, 3})
	tube.Skeleton.Joints[0].Name = "root joint"
	tube.Skeleton.Joints[1].Name = "2nd/bone"
	tube.Skeleton.Joints[2].Name = "épaule"
	c := tube.Clips[0]
	c.Name, c.FPS = "walk \"fast\"", 24
	c.Frames = 3
	n := tube.Skeleton.Len()
	c.Rotation = append([]linalg.Quat(nil), c.Rotation[:3*n]...)
	c.Translation = append([]linalg.Vec3(nil), c.Translation[:3*n]...)
	tube.Clips = append(tube.Clips, c)
	if err := tube.Validate(); err != nil {
		t.Fatal(err)
	}
	out["tube"] = tube
	return out
}
