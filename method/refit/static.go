package refit

import (
	"context"
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/rig"
)

// Static binds r's mesh to r's (edited) skeleton again with the weight
// scheme named scheme ("" is heat; see skinweights.Schemes), at most
// o.MaxInfluences per vertex (the other options do not apply). Joints —
// names, order, parents, heads — and any clips are kept as they are; only
// the skin changes (r is not modified; the result shares its mesh). Bones run from each joint to its children, as
// skinweights binds them. It fails on an unknown scheme, an invalid rig
// skeleton, and what skinweights.Compute refuses (heat: a mesh without
// triangles).
func Static(ctx context.Context, r *rig.Rig, scheme string, o Options) (*rig.Rig, error) {
	o = o.withDefaults()
	sc, err := skinweights.ParseScheme(scheme)
	if err != nil {
		return nil, fmt.Errorf("refit: %w", err)
	}
	if r == nil || r.Mesh == nil {
		return nil, fmt.Errorf("refit: the rig has no mesh")
	}
	if err := r.Skeleton.Validate(); err != nil {
		return nil, fmt.Errorf("refit: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sk := &static.Skeleton{Joints: make([]linalg.Vec3, r.Skeleton.Len())}
	for j, jt := range r.Skeleton.Joints {
		sk.Joints[j] = jt.Head
		if jt.Parent != rig.NoParent {
			sk.Edges = append(sk.Edges, [2]int{int(jt.Parent), j})
		}
	}
	o.Progress.Report("weights", 0, 1)
	skin, err := skinweights.Compute(r.Mesh, sk, sc, skinweights.Options{MaxInfluences: o.MaxInfluences})
	if err != nil {
		return nil, fmt.Errorf("refit: %w", err)
	}
	o.Progress.Report("weights", 1, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := &rig.Rig{Mesh: r.Mesh, Skeleton: rig.Skeleton{Joints: append([]rig.Joint(nil), r.Skeleton.Joints...)}, Skin: skin}
	for _, c := range r.Clips {
		c.Rotation = append(c.Rotation[:0:0], c.Rotation...)
		c.Translation = append(c.Translation[:0:0], c.Translation...)
		out.Clips = append(out.Clips, c)
	}
	return out, out.Validate()
}
