package gltf

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// TestWriteRefusesRatesFloat32CannotKeep: key times past float32's range
// (1e-300 fps) or below its normal numbers (1e44 fps) would be written as
// Inf, or read back at another rate; the writer names the clip instead.
func TestWriteRefusesRatesFloat32CannotKeep(t *testing.T) {
	for _, c := range []struct {
		fps float64
		ok  bool
	}{{30, true}, {0.001, true}, {1e6, true}, {1e-300, false}, {1e44, false}} {
		r := testrig.Tube(t, 3, linalg.Vec3{})
		r.Clips = []rig.Clip{rig.NewClip(&r.Skeleton, "walk", c.fps, 3)}
		var buf bytes.Buffer
		err := Write(&buf, r, format.WriteOptions{})
		switch {
		case c.ok && err != nil:
			t.Errorf("%g fps: %v", c.fps, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), `clip "walk"`)):
			t.Errorf("%g fps: err = %v, want a refusal naming the clip", c.fps, err)
		}
	}
}

// TestScaleTracksReadBack: a rig with scale tracks is written with scale
// channels and read back with them (rig.Clip.Scale), replaying within
// float32; a rig without them reads back without.
func TestScaleTracksReadBack(t *testing.T) {
	dir := t.TempDir()
	for name, r := range map[string]*rig.Rig{"stretch": stretchRig(t), "tube": testrig.Tube(t, 10, linalg.Vec3{})} {
		p := filepath.Join(dir, name+".glb")
		if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		sc, err := format.ReadScene(p, format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sc.Rig.HasScale(), r.HasScale(); got != want {
			t.Fatalf("%s: read back with scale tracks %v, written %v", name, got, want)
		}
		rep, err := metric.Compare(testrig.Play(t, r), sc.Rig)
		if err != nil {
			t.Fatal(err)
		}
		if rep.MaxPercent > 1e-3 {
			t.Errorf("%s: read back off by Max%% %.3g", name, rep.MaxPercent)
		}
	}
}

// TestScaleChannelsOnlyWithScaleTracks: a rotation-only rig is written as
// before, without scale channels; a rig with scale tracks gets one per
// joint.
func TestScaleChannelsOnlyWithScaleTracks(t *testing.T) {
	for name, c := range map[string]struct {
		r    *rig.Rig
		want int
	}{"tube": {testrig.Tube(t, 4, linalg.Vec3{}), 0}, "stretch": {stretchRig(t), 3}} {
		var buf bytes.Buffer
		if err := Write(&buf, c.r, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		doc := new(gltflib.Document)
		if err := gltflib.NewDecoder(bytes.NewReader(buf.Bytes())).Decode(doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ch := range doc.Animations[0].Channels {
			if ch.Target.Path == gltflib.TRSScale {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%s: %d scale channels, want %d", name, n, c.want)
		}
	}
}
