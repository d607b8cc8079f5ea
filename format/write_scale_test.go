package format_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/collada"
	_ "github.com/meshrig/meshrig/format/fbx"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/usd"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// TestWritersRefuseScaleTracks: a rig with scale tracks (--stretch) is
// written with them (glTF, COLLADA) or refused with rig.ErrScaleTracks by
// every other registered writer — never written without them.
func TestWritersRefuseScaleTracks(t *testing.T) {
	r := testrig.Tube(t, 3, linalg.Vec3{})
	c := &r.Clips[0]
	c.Scale = make([]linalg.Vec3, c.Frames*r.Skeleton.Len())
	for k := range c.Scale {
		c.Scale[k] = linalg.Vec3{1.2, 1, 1}
	}
	writers := 0
	for _, f := range format.Formats() {
		if f.Write == nil {
			continue
		}
		writers++
		err := f.Write(&bytes.Buffer{}, r, format.WriteOptions{})
		if f.Name == "gltf" || f.Name == "collada" {
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
			}
			continue
		}
		if !errors.Is(err, rig.ErrScaleTracks) {
			t.Errorf("%s: err = %v, want %v", f.Name, err, rig.ErrScaleTracks)
		}
	}
	if writers < 5 {
		t.Errorf("%d writers registered, want glTF, COLLADA, FBX and USD's", writers)
	}
}
