package rig

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// NewFree builds the free form of a skinning decomposition: B bones, each
// with its own rigid transform per frame and no hierarchy, as a rig whose
// root joint "root" sits still at the origin and whose joints "bone_b"
// (b = 0…B-1, joint b+1) hang under it with animated translation and
// rotation.
//
// boneSkin indexes bones 0…B-1; transforms[f*B+b] maps rest-pose points of
// bone b to frame f and must be rigid (a non-rotation linear part is
// replaced by its nearest rotation). Each bone's head is the weighted
// centroid of the vertices it moves, so viewers show it inside its part.
func NewFree(m *mesh.Mesh, boneSkin Skin, bones int, name string, fps float64, frames int, transforms []linalg.Affine) (*Rig, error) {
	if len(transforms) != frames*bones {
		return nil, fmt.Errorf("free rig: %d transforms for %d frames × %d bones", len(transforms), frames, bones)
	}
	if len(boneSkin) != len(m.Verts) {
		return nil, fmt.Errorf("free rig: skin has %d vertices, mesh has %d", len(boneSkin), len(m.Verts))
	}
	heads := make([]linalg.Vec3, bones)
	mass := make([]float64, bones)
	for i, in := range boneSkin {
		for k, w := range in.Weight {
			if w > 0 {
				b := in.Joint[k]
				heads[b] = heads[b].Add(m.Verts[i].Scale(w))
				mass[b] += w
			}
		}
	}
	sk := Skeleton{Joints: make([]Joint, bones+1)}
	sk.Joints[0] = Joint{Name: "root", Parent: NoParent}
	for b := 0; b < bones; b++ {
		if mass[b] > 0 {
			heads[b] = heads[b].Scale(1 / mass[b])
		}
		sk.Joints[b+1] = Joint{Name: fmt.Sprintf("bone_%d", b), Parent: 0, Head: heads[b]}
	}
	skin := make(Skin, len(boneSkin))
	for i, in := range boneSkin {
		for k := range in.Joint {
			in.Joint[k]++
		}
		skin[i] = in
	}
	n := bones + 1
	c := NewClip(&sk, name, fps, frames)
	for f := 0; f < frames; f++ {
		for b := 0; b < bones; b++ {
			t := transforms[f*bones+b]
			q := linalg.BestRotation(t.M)
			c.Rotation[f*n+b+1] = q
			// The joint frame's origin lands where the bone sends its head.
			c.Translation[f*n+b+1] = q.Rotate(heads[b]).Add(t.T)
		}
	}
	r := &Rig{Mesh: m, Skeleton: sk, Skin: skin, Clips: []Clip{c}}
	return r, r.Validate()
}
