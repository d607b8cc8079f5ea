package contraction

import (
	"context"
	"fmt"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skeletonshape"
	"github.com/meshrig/meshrig/method/static"
)

// Skeleton returns the curve skeleton of m by Laplacian mesh contraction
// (Au et al. 2008, as the Laplacian-contraction Collada paper applies
// it), in m's units, with opt.Joints joints (more only where every
// further collapse would fold a loop of the shape). Vertices at the same
// place are welded, holes closed and separate pieces joined through
// their closest vertices, so the result is one connected graph; a loop
// of the shape (a torus) stays a loop in Edges. Unless opt.Raw, the
// skeleton is then shaped by method/skeletonshape (made symmetric about
// the mesh's mirror plane, rooted at the torso, stars split); with Raw,
// Root is the joint whose mesh region encloses the most volume. What was repaired or added is
// reported through opt.Notes.
//
// It fails on a mesh with no faces, invalid indices or non-finite
// positions, on one whose faces have no area, on one of more separate
// pieces than it joins, and when opt.Joints is more than the mesh graph
// can carry (see Options.Joints); and with ctx's error when ctx ends.
func Skeleton(ctx context.Context, m *mesh.Mesh, opt Options) (*static.Skeleton, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if m == nil || len(m.Verts) == 0 {
		return nil, fmt.Errorf("contraction: the mesh has no vertices")
	}
	if len(m.Tris) == 0 {
		return nil, fmt.Errorf("contraction: the mesh has no faces")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("contraction: %w", err)
	}
	us := method.NewUnitSphere(m.Verts)
	opt.Progress.Report("graph", 0, 1)
	g, err := newGraph(ctx, us.To(nil, m.Verts), m.Tris, opt.Split, opt.MinVertices, opt.MaxVertices)
	if err != nil {
		return nil, err
	}
	if opt.Joints > len(g.pos) {
		return nil, fmt.Errorf("contraction: %d joints asked for, more than the %d vertices of the mesh graph (a joint stands for at least one); ask for at most %d", opt.Joints, len(g.pos), len(g.pos))
	}
	notes(opt.Notes, g)
	opt.Progress.Report("graph", 1, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	c, err := contract(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	if c.ratio > opt.Stop {
		what := "volume"
		if !c.volume {
			what = "area"
		}
		opt.Notes.Add(fmt.Sprintf("contraction: %s ratio %.2g after %d iterations (target %.2g): the surface stopped shrinking", what, c.ratio, c.iterations, opt.Stop))
	}

	s := newSimplifier(g, c.pos, opt)
	total := s.nodes
	report := func(done int) { opt.Progress.Report("collapses", done, total) }
	if err := s.run(ctx, merging, opt.Joints, opt.Merge, report); err != nil {
		return nil, err
	}
	if err := s.run(ctx, surgery, 1, 0, report); err != nil {
		return nil, err
	}
	s.centre(g)
	if err := s.run(ctx, thinning, opt.Joints, 0, report); err != nil {
		return nil, err
	}
	opt.Progress.Report("collapses", total, total)
	if s.nodes > opt.Joints {
		opt.Notes.Add(fmt.Sprintf("contraction: %d joints (asked for %d): every further collapse would fold a loop of the shape", s.nodes, opt.Joints))
	}

	sk := embed(g, s)
	n, err := splitBones(ctx, sk, opt.Joints)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		opt.Notes.Add(fmt.Sprintf("contraction: the contracted mesh collapsed to %d joints; %d more placed at the middle of the longest bones", len(sk.Joints)-n, n))
	}
	for j, p := range sk.Joints {
		sk.Joints[j] = us.From(p)
	}
	if !opt.Raw {
		if sk, err = skeletonshape.Shape(ctx, m, sk, skeletonshape.Options{
			NoSymmetry: opt.NoSymmetry, Detail: opt.Detail, Joints: opt.Joints, Notes: opt.Notes}); err != nil {
			return nil, fmt.Errorf("contraction: %w", err)
		}
	}
	if err := sk.Validate(); err != nil {
		return nil, fmt.Errorf("contraction: %w", err)
	}
	return sk, nil
}

// notes reports what building the graph repaired.
func notes(n method.Notes, g *graph) {
	if g.welded > 0 {
		n.Add(fmt.Sprintf("contraction: %d vertices welded to coincident ones (seams)", g.welded))
	}
	if g.split > 0 {
		n.Add(fmt.Sprintf("contraction: %d spurious edges split off with their faces", g.split))
	}
	if g.pinched > 0 {
		n.Add(fmt.Sprintf("contraction: %d pinched vertices split (surface sheets touching in a point)", g.pinched))
	}
	if g.unused > 0 {
		n.Add(fmt.Sprintf("contraction: %d vertices on no face left out", g.unused))
	}
	if g.holes > 0 {
		n.Add(fmt.Sprintf("contraction: %d holes closed", g.holes))
	}
	if g.decimated > 0 {
		n.Add(fmt.Sprintf("contraction: contracting a %d-vertex simplification of the %d-vertex mesh", len(g.pos), g.decimated))
	}
	if g.subdivided > 0 {
		n.Add(fmt.Sprintf("contraction: contracting the mesh subdivided %d times (%d vertices)", g.subdivided, len(g.pos)))
	}
	if len(g.joins) > 0 {
		n.Add(fmt.Sprintf("contraction: %d separate pieces joined through their closest vertices", g.components))
	}
}
