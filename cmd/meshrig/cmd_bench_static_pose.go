package main

import (
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/libigl"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// poseTruth is a ground-truth motion of a static case, for the pose
// test (metric.PoseError): the true rig with its motion as clips, and the
// animation that motion makes.
type poseTruth struct {
	rig  *rig.Rig
	anim *seq.Sequence
}

// loadPoseTruth reads the motion that comes with a case: a libigl rig's
// poses or animation (libigl.ReadMotion), or a glTF character's own
// clips. It returns nil for a case without one (rigs/arm, a plain mesh).
func loadPoseTruth(c staticCase, m *mesh.Mesh) (*poseTruth, error) {
	if c.truth == "" {
		return nil, nil
	}
	if strings.HasSuffix(strings.ToLower(strings.TrimSuffix(c.truth, ".gz")), ".tgf") {
		r, anim, err := libigl.ReadMotion(c.truth, m)
		if err != nil || r == nil {
			return nil, err
		}
		return &poseTruth{rig: r, anim: anim}, nil
	}
	sc, err := format.ReadScene(c.truth, format.SceneOptions{})
	if err != nil {
		return nil, err
	}
	if sc.Rig == nil || sc.Sequence == nil || len(sc.Rig.Clips) == 0 {
		return nil, nil
	}
	return &poseTruth{rig: sc.Rig, anim: sc.Sequence}, nil
}
