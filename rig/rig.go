package rig

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// Rig is a skinned, animated character: what rigging methods produce and
// writers consume.
type Rig struct {
	// Mesh is the rest pose the skin deforms.
	Mesh     *mesh.Mesh
	Skeleton Skeleton
	// Skin has one entry per Mesh vertex.
	Skin  Skin
	Clips []Clip
}

// Validate checks the skeleton, the skin against the mesh and skeleton,
// and every clip, and that clip names are unique (a file keeps clips
// apart by name).
func (r *Rig) Validate() error {
	if r.Mesh == nil {
		return fmt.Errorf("rig has no mesh")
	}
	if err := r.Skeleton.Validate(); err != nil {
		return err
	}
	if len(r.Skin) != len(r.Mesh.Verts) {
		return fmt.Errorf("skin has %d vertices, mesh has %d", len(r.Skin), len(r.Mesh.Verts))
	}
	if s := r.Mesh.Surface; s != nil {
		// Writers index the surface by vertex, triangle and part.
		if err := s.Validate(len(r.Mesh.Verts), len(r.Mesh.Tris)); err != nil {
			return fmt.Errorf("mesh surface: %w", err)
		}
	}
	if err := r.Skin.Validate(r.Skeleton.Len()); err != nil {
		return err
	}
	names := make(map[string]bool, len(r.Clips))
	for k := range r.Clips {
		if err := r.Clips[k].Validate(r.Skeleton.Len()); err != nil {
			return err
		}
		if names[r.Clips[k].Name] {
			return fmt.Errorf("clip name %q used twice", r.Clips[k].Name)
		}
		names[r.Clips[k].Name] = true
	}
	return nil
}

// Skeletal reports whether joint rotations and one root translation move
// the character in every clip (Clip.Skeletal). Bones count as rigid within
// the precision of the float32 files rigs travel in: 1e-6 of the larger
// of the mesh's diagonal and its farthest coordinate (float32 carries
// 6e-8 of a value; an offset and a translation each rounded, and the
// heads they come from, stay well inside it), and a joint as unturned
// within 1e-6 radians.
func (r *Rig) Skeletal() bool {
	scale := mesh.Diagonal(r.Mesh.Verts)
	for _, v := range r.Mesh.Verts {
		scale = max(scale, math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]))
	}
	for _, j := range r.Skeleton.Joints {
		scale = max(scale, math.Abs(j.Head[0]), math.Abs(j.Head[1]), math.Abs(j.Head[2]))
	}
	tol := 1e-6 * scale
	for k := range r.Clips {
		if !r.Clips[k].Skeletal(&r.Skeleton, tol, 1e-6) {
			return false
		}
	}
	return true
}

// Frame writes into out the deformed mesh positions at frame f of clip c.
func (r *Rig) Frame(out []linalg.Vec3, c, f int) []linalg.Vec3 {
	pose := r.Skeleton.Pose(&r.Clips[c], f, nil)
	return Deform(out, r.Mesh.Verts, r.Skin, r.Skeleton.SkinMatrices(pose, pose))
}

// SplitClips returns one rig per clip, each sharing r's mesh, skeleton
// and skin and holding that clip alone.
func (r *Rig) SplitClips() []*Rig {
	out := make([]*Rig, len(r.Clips))
	for k := range r.Clips {
		one := *r
		one.Clips = r.Clips[k : k+1 : k+1]
		out[k] = &one
	}
	return out
}
