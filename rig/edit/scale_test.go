package edit

import (
	"slices"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
)

// TestScaleTracks: a rig with scale tracks (rig --stretch) is edited. A
// rename keeps every track, scales included, bit for bit; a changed
// hierarchy carries the rotations and translations exactly as it does
// for the same rig without scales, and its scale tracks come back as
// ones (a refit fits them again).
func TestScaleTracks(t *testing.T) {
	r := testrig.SquashTube(t, 12, linalg.Vec3{}, testrig.AlongBone)
	plain := *r
	plain.Clips = append(plain.Clips[:0:0], r.Clips...)
	plain.Clips[0].Scale = nil

	renamed, err := Rename(r, 1, "knee")
	if err != nil {
		t.Fatal(err)
	}
	c, in := renamed.Clips[0], r.Clips[0]
	if !slices.Equal(c.Scale, in.Scale) || !slices.Equal(c.Rotation, in.Rotation) || !slices.Equal(c.Translation, in.Translation) {
		t.Error("a rename changed the clip")
	}

	for _, op := range []Op{{Kind: "split", Joint: 2, T: 0.5}, {Kind: "move", Joint: 1, Head: [3]float64{1.2, 0.1, 0}}, {Kind: "remove", Joint: 1}} {
		got, _, err := Apply(r, op)
		if err != nil {
			t.Fatalf("%s: %v", op.Kind, err)
		}
		want, _, err := Apply(&plain, op)
		if err != nil {
			t.Fatal(err)
		}
		c, w := got.Clips[0], want.Clips[0]
		if !slices.Equal(c.Rotation, w.Rotation) || !slices.Equal(c.Translation, w.Translation) {
			t.Errorf("%s: the motion differs from the rotation-only rig's", op.Kind)
		}
		if len(c.Scale) != c.Frames*got.Skeleton.Len() {
			t.Fatalf("%s: %d scales for %d frames × %d joints", op.Kind, len(c.Scale), c.Frames, got.Skeleton.Len())
		}
		for k, s := range c.Scale {
			if s != (linalg.Vec3{1, 1, 1}) {
				t.Fatalf("%s: scale %d is %v, not ones", op.Kind, k, s)
			}
		}
	}
}
