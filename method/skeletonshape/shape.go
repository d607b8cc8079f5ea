package skeletonshape

import (
	"context"
	"fmt"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/static"
)

// Options controls Shape. The zero value gives the defaults.
type Options struct {
	// NoSymmetry keeps the skeleton as the method found it, even on a
	// mirror-symmetric mesh.
	NoSymmetry bool
	// Joints, when not 0, is the joint count wanted (SetJoints).
	Joints int
	// Detail keeps detail branches (ears, horns, bumps) that FoldDetail
	// would fold into their parent.
	Detail bool
	// Up is the mesh's up direction, for Name (which limbs are legs);
	// zero means +Y, glTF's up.
	Up linalg.Vec3
	// Notes may be nil.
	Notes method.Notes
}

// Shape makes a method's curve skeleton s of m one an animator would
// keep, in this order: detail branches folded (FoldDetail) unless
// opt.Detail; symmetric about m's mirror plane when m has one
// (MirrorPlane, Plane.Residual ≤ SymmetricResidual; Symmetrize) unless
// opt.NoSymmetry; rooted at the torso (TorsoRoot, on the plane when there
// is one); no joint with more than three children (SplitStars); and
// opt.Joints joints when it asks (SetJoints); on a symmetric skeleton
// with a biped or quadruped layout, the joints are named (Name). Joints are kept inside m's
// bounding box. s is not changed; the result is in m's units and valid
// (static.Skeleton.Validate). Notes say what was found and done.
func Shape(ctx context.Context, m *mesh.Mesh, s *static.Skeleton, opt Options) (*static.Skeleton, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	out := &static.Skeleton{Joints: append([]linalg.Vec3(nil), s.Joints...), Edges: append([][2]int(nil), s.Edges...), Root: s.Root}
	d := mesh.Diagonal(m.Verts)
	tree := bvh.New(m.Verts, m.Tris, nil)
	if !opt.Detail {
		var folded int
		if out, folded = FoldDetail(out, thickness(tree, out.Joints)); folded > 0 {
			opt.Notes.Add(fmt.Sprintf("shape: %d joints of detail branches (shorter than %.1f times the thickness where they leave the body) folded into their parent", folded, detailReach))
		}
	}
	var plane *Plane
	if pl, ok := MirrorPlane(m); ok {
		if pl.Residual <= SymmetricResidual && !opt.NoSymmetry {
			var st MirrorStats
			out, st = Symmetrize(out, pl, d)
			if st.Skipped {
				opt.Notes.Add(fmt.Sprintf("shape: mirror plane: normal (%.3f, %.3f, %.3f), residual %.2f%% of the diagonal; the skeleton does not follow it (%d pairs, %d joints on the plane) and is left as it is",
					pl.Normal[0], pl.Normal[1], pl.Normal[2], pl.Residual, st.Pairs, st.OnPlane))
			} else {
				plane = &pl
				opt.Notes.Add(fmt.Sprintf("shape: mirror plane: normal (%.3f, %.3f, %.3f), residual %.2f%% of the diagonal; skeleton made symmetric (%d pairs, %d joints on the plane; without a partner: %d bends removed, %d tips or forks mirrored)",
					pl.Normal[0], pl.Normal[1], pl.Normal[2], pl.Residual, st.Pairs, st.OnPlane, st.Dropped, st.Mirrored))
			}
		} else if pl.Residual > SymmetricResidual {
			opt.Notes.Add(fmt.Sprintf("shape: no mirror plane: the best has residual %.2f%% of the diagonal (symmetric up to %.1f%%); skeleton left asymmetric", pl.Residual, SymmetricResidual))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	radius := thickness(tree, out.Joints)
	var allowed []bool
	if plane != nil {
		allowed = make([]bool, len(out.Joints))
		any := false
		for j, p := range out.Joints {
			allowed[j] = plane.Side(p) == 0 || abs(plane.Side(p)) < 1e-9*d
			any = any || allowed[j]
		}
		if !any {
			allowed = nil
		}
	}
	out.Root = TorsoRoot(out, radius, allowed)
	if added := SplitStars(out, mainAxis(m), plane, d); added > 0 {
		opt.Notes.Add(fmt.Sprintf("shape: %d joints added to split joints with more than %d children into chains", added, maxChildren))
	}
	if opt.Joints > 0 {
		before := len(out.Joints)
		if got := SetJoints(out, opt.Joints, plane, d); got != before {
			opt.Notes.Add(fmt.Sprintf("shape: %d joints brought to %d as asked", before, got))
		}
	}
	if plane != nil {
		up := opt.Up
		if up == (linalg.Vec3{}) {
			up = linalg.Vec3{0, 1, 0}
		}
		if layout, names := Name(out, *plane, up.Unit(), d); names != nil {
			out.Names = names
			opt.Notes.Add(fmt.Sprintf("shape: a %s layout: joints named (hips, spine, chest, neck, head, limbs .L/.R)", layout))
		}
	}
	// Projections and splits can step a hair outside a flat mesh's box;
	// no joint belongs there.
	lo, hi := mesh.Bounds(m.Verts)
	for j, p := range out.Joints {
		out.Joints[j] = p.Max(lo).Min(hi)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("skeletonshape: %w", err)
	}
	return out, nil
}

// mainAxis is the principal axis of m's vertices (the body's length).
func mainAxis(m *mesh.Mesh) linalg.Vec3 {
	c := mesh.Centroid(m.Verts)
	var cov linalg.Mat3
	for _, p := range m.Verts {
		cov = cov.Add(linalg.Outer(p.Sub(c), p.Sub(c)))
	}
	_, v := linalg.SymEigen3(cov)
	return v.Col(0).Unit()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
