package usd

import (
	"bytes"
	"errors"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// TestWriteRefusesScaleTracks: a rig with scale tracks (--stretch) is
// refused, not written without them.
func TestWriteRefusesScaleTracks(t *testing.T) {
	r := testrig.Tube(t, 3, linalg.Vec3{})
	c := &r.Clips[0]
	c.Scale = make([]linalg.Vec3, c.Frames*r.Skeleton.Len())
	for k := range c.Scale {
		c.Scale[k] = linalg.Vec3{1.2, 1, 1}
	}
	err := Write(&bytes.Buffer{}, r, format.WriteOptions{})
	if !errors.Is(err, rig.ErrScaleTracks) {
		t.Fatalf("err = %v, want %v", err, rig.ErrScaleTracks)
	}
}
