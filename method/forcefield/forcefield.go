package forcefield

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skeletonshape"
	"github.com/meshrig/meshrig/method/static"
)

// Skeleton returns the curve skeleton of m by the repulsive force field
// method (Liu, Chen, Wu, Yang & Wang 2003), in m's units. m should be
// closed: inside and outside come from ray parity, so the interior of an
// open mesh is a best effort (the three axes vote, and a note says how
// many edges are open). Separate parts get their own pieces, joined
// through their nearest joints so the result is one connected graph;
// loops of the shape (a torus) stay loops in Edges, and Root is the joint
// nearest the center of mass of the voxelized solid (the mean of the
// interior voxel centres), where a character's hips or chest usually are.
// Unless opt.Raw, the skeleton is then shaped by method/skeletonshape:
// made symmetric about the mesh's mirror plane, rooted at the torso (the
// volume-weighted graph centre), stars split into chains.
//
// Exact duplicate faces (the same corners, either way round) are removed
// first, and a note says how many.
//
// It fails on a mesh with no faces, invalid indices or non-finite
// positions, a flat mesh, or when no voxel centre lies inside the mesh.
func Skeleton(ctx context.Context, m *mesh.Mesh, opt Options) (*static.Skeleton, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if m == nil || len(m.Verts) == 0 {
		return nil, fmt.Errorf("forcefield: the mesh has no vertices")
	}
	if len(m.Tris) == 0 {
		return nil, fmt.Errorf("forcefield: the mesh has no faces")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("forcefield: %w", err)
	}
	lo, hi := mesh.Bounds(m.Verts)
	side := math.Max(hi[0]-lo[0], math.Max(hi[1]-lo[1], hi[2]-lo[2]))
	if !(side > 0) || math.IsInf(side, 0) {
		return nil, fmt.Errorf("forcefield: the mesh's bounding box has size %g", side)
	}
	cb := cube{lo: lo, scale: 1 / side}
	pos := make([]linalg.Vec3, len(m.Verts))
	for i, p := range m.Verts {
		pos[i] = cb.to(p)
	}

	if tris, dup := uniqueFaces(m); dup > 0 {
		opt.Notes.Add(fmt.Sprintf("forcefield: %d duplicate faces removed (the same corners as another face)", dup))
		m = &mesh.Mesh{Verts: m.Verts, Tris: tris}
	}
	part, open := parts(m)
	if open > 0 {
		opt.Notes.Add(fmt.Sprintf("forcefield: the mesh has %d open edges; inside and outside are a best effort", open))
	}

	opt.Progress.Report("voxels", 0, 1)
	b := bvh.New(pos, m.Tris, part)
	g := newGrid(cb.to(hi), opt.VoxelSize)
	inside, filled := interior(g, b)
	if filled > 0 {
		opt.Notes.Add(fmt.Sprintf("forcefield: filled %d enclosed empty voxels", filled))
	}
	opt.Progress.Report("voxels", 1, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := newField(ctx, g, inside, b, opt.Rays, opt.Progress)
	if err != nil {
		return nil, err
	}
	if len(f.vox) == 0 {
		return nil, fmt.Errorf("forcefield: no voxel centre lies inside the mesh (is it closed, and thicker than a voxel of %.3g of its longest side?)", opt.VoxelSize)
	}
	minima := f.minima()
	opt.Progress.Report("thinning", 0, 1)
	tips, nb := f.tipKeeper(), newNbhd()
	keep, err := f.thin(ctx, nil, minima, tips, nb)
	if err != nil {
		return nil, err
	}
	if f.dropPlates(keep, minima, tips) > 0 {
		if keep, err = f.thin(ctx, keep, minima, tips, nb); err != nil {
			return nil, err
		}
	}
	f.pruneThin(keep, nb)
	opt.Progress.Report("thinning", 1, 1)
	gr := f.group(f.candidates(keep, minima), opt.Merge)
	if np := connectPieces(gr); np > 1 {
		opt.Notes.Add(fmt.Sprintf("forcefield: %d separate pieces joined through their nearest joints", np))
	}
	gr.extendTips(b, g.h)
	gr.exits()
	gr.bend(g.h)

	var com linalg.Vec3
	for _, id := range f.vox {
		com = com.Add(g.center(int(id)))
	}
	com = com.Scale(1 / float64(len(f.vox)))
	s := &static.Skeleton{
		Joints: make([]linalg.Vec3, len(gr.joints)),
		Edges:  gr.edges,
		Root:   nearest(gr.joints, com),
	}
	for j, p := range gr.joints {
		s.Joints[j] = cb.from(p)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("forcefield: %w", err)
	}
	if opt.Raw {
		return s, nil
	}
	// A joint is placed to about a voxel: parts thinner than one are
	// judged as that thick (skeletonshape.Options.Resolution).
	if s, err = skeletonshape.Shape(ctx, m, s, skeletonshape.Options{
		NoSymmetry: opt.NoSymmetry, Detail: opt.Detail, Joints: opt.Joints, Resolution: opt.VoxelSize * side, Notes: opt.Notes}); err != nil {
		return nil, fmt.Errorf("forcefield: %w", err)
	}
	return s, nil
}
