package rig

import (
	"fmt"

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

// Skeletal reports whether every clip keeps the bones rigid (within 1e-9 of
// the mesh's diagonal), so only joint rotations and the root translation
// move the character.
func (r *Rig) Skeletal() bool {
	tol := 1e-9 * mesh.Diagonal(r.Mesh.Verts)
	for k := range r.Clips {
		if !r.Clips[k].Rigid(&r.Skeleton, tol) {
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
