package skeletonshape

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
	// Resolution is the finest detail the method resolves, in the mesh's
	// units (the force field's voxel edge): its joints sit within about
	// that of where they belong, so a part thinner than it counts as this
	// thick when Straighten judges joints along it, and digits within two
	// of it of the surface are folded (FoldThin). Zero: the thickness as
	// measured, and no digits folded.
	Resolution float64
	// Notes may be nil.
	Notes method.Notes
}

// Shape makes a method's curve skeleton s of m one an animator would
// keep, in this order: detail branches folded (FoldDetail, and FoldThin
// at opt.Resolution) unless opt.Detail; symmetric about m's mirror plane when m has one
// (MirrorPlane, Plane.Residual ≤ SymmetricResidual; Symmetrize) unless
// opt.NoSymmetry; joints that only oversample straight runs removed
// (Straighten) and the joints of a straight tube of one girth spaced
// evenly and centred in it (EvenRuns) unless opt.Detail or opt.Joints;
// a joint added where a
// part hangs from a narrowing (Waists: a head at the top of its neck)
// unless opt.Joints; rooted at the torso
// (TorsoRoot, on the plane when there is one, next to a star rather than
// at it); no
// joint with more than three children (SplitStars); where a part hung
// from a waist has no joint at its far end because its other bone turns
// back (an elephant's head above its trunk), a tip at its crown
// (crowns), and the joint at the centre of a part hung from a waist
// that ends the body merged into the waist's (ends: the head's bones
// start at the top of the neck); and opt.Joints
// joints when it asks (SetJoints); on a symmetric skeleton with a biped
// or quadruped layout, the joints are named (Name), a joint is added
// where the bone from the neck's base enters the head's ball when that
// bone is longer than the two joints' balls reach (HeadBase: a head on a
// neck as thick as itself, with no waist to mark where it turns) unless
// opt.Joints, and the root is moved to the hips. Joints are kept inside
// m's bounding box. s is not changed; the result is in m's units and
// valid (static.Skeleton.Validate). Notes say what was found and done.
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
		if out, folded = FoldThin(out, tree, opt.Resolution); folded > 0 {
			opt.Notes.Add(fmt.Sprintf("shape: %d joints of thin short branches (toes, fingers: within %d resolutions of the surface, shorter than %.2f of the limb they end) folded into their parent", folded, thinGirth, thinReach))
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
	if !opt.Detail && opt.Joints == 0 {
		// With a count asked for, SetJoints chooses the joints that go.
		// The root is chosen below; meanwhile it must not hold a straight
		// run together.
		out.Root = anchor(out)
		eff := symmetricRadius(out, radius, plane, d)
		for j := range eff {
			eff[j] = max(eff[j], opt.Resolution)
		}
		var removed int
		if out, removed = Straighten(out, eff, plane, d); removed > 0 {
			opt.Notes.Add(fmt.Sprintf("shape: %d joints along straight runs removed (a neighbour's ball overlapping theirs, within %.1f thicknesses of the bone replacing them)", removed, straightTolerance))
			radius = thickness(tree, out.Joints)
		}
		if n := EvenRuns(out, symmetricRadius(out, radius, plane, d), tree, plane, d); n > 0 {
			opt.Notes.Add(fmt.Sprintf("shape: %d joints spaced evenly along straight tubes of one girth (a run of at least two, thicknesses within %.0f%%) and centred in the tube", n, 100*uniformGirth))
			radius = thickness(tree, out.Joints)
		}
	}
	var lumps []lump
	if opt.Joints == 0 {
		if lumps = waists(out, tree, symmetricRadius(out, radius, plane, d), plane, d); len(lumps) > 0 {
			opt.Notes.Add(fmt.Sprintf("shape: %d joints added at waists (a bone's narrowest point, thinner than both its ends, with a part at least %d times as thick beyond it: a head on its neck)", len(lumps), waistLump))
			radius = thickness(tree, out.Joints)
		}
	}
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
	out.Root = offStar(out, TorsoRoot(out, radius, allowed), radius, allowed)
	if added := SplitStars(out, mainAxis(m), plane, d); added > 0 {
		opt.Notes.Add(fmt.Sprintf("shape: %d joints added to split joints with more than %d children into chains", added, maxChildren))
	}
	if len(lumps) > 0 {
		if n := crowns(out, tree, lumps, symmetricRadius(out, thickness(tree, out.Joints), plane, d), plane, d, opt.Resolution); n > 0 {
			opt.Notes.Add(fmt.Sprintf("shape: %d tips added at the far end of parts hung from a waist whose other bone turns back (a head's crown above a trunk)", n))
		}
		var n int
		if out, n = ends(out, lumps); n > 0 {
			opt.Notes.Add(fmt.Sprintf("shape: %d joints at the centre of parts hung from a waist that end the body (a head) merged into their waist", n))
		}
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
			if opt.Joints == 0 && HeadBase(out, thickness(tree, out.Joints), *plane) {
				// The neck's joints numbered again with the new one.
				if _, names := Name(out, *plane, up.Unit(), d); names != nil {
					out.Names = names
				}
				opt.Notes.Add("shape: a joint added at the back of the head (where the bone from the neck's base enters the head's ball)")
			}
			opt.Notes.Add(fmt.Sprintf("shape: a %s layout: joints named (hips, spine, chest, neck, head, limbs .L/.R)", layout))
			out.Root = hipsRoot(out)
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

// offStar returns root, or when root has one bone more than maxChildren
// (as the root all its bones lead to children) its thickest neighbour
// that has few enough and is allowed (nil: any), so the star keeps
// maxChildren children below its parent without a joint added to split
// it (a joint that owns the roots of two mirrored limbs moves them as
// one).
func offStar(s *static.Skeleton, root int, radius []float64, allowed []bool) int {
	adj := adjacency(len(s.Joints), s.Edges)
	if len(adj[root]) != maxChildren+1 {
		return root // not a star, or one that needs splitting anyway
	}
	best := root
	for _, k := range adj[root] {
		if len(adj[k]) > maxChildren || len(adj[k]) < 2 || (allowed != nil && !allowed[k]) {
			continue
		}
		if best == root || radius[k] > radius[best] {
			best = k
		}
	}
	return best
}

// hipsRoot returns the joint a named skeleton should hang from: the
// hips, where an animator roots a biped or a quadruped (the volume
// centre of a quadruped, with its head and neck in front, lies at the
// shoulders); or, when the hips would then have more than maxChildren
// children (legs, tail and spine), the spine joint next to them.
func hipsRoot(s *static.Skeleton) int {
	hips := slices.Index(s.Names, "hips")
	if hips < 0 {
		return s.Root
	}
	adj := adjacency(len(s.Joints), s.Edges)
	if len(adj[hips]) <= maxChildren {
		return hips
	}
	for _, k := range adj[hips] {
		if strings.HasPrefix(s.Names[k], "spine") || s.Names[k] == "chest" {
			if len(adj[k]) <= maxChildren {
				return k
			}
		}
	}
	return s.Root
}

// symmetricRadius returns radius with each joint's value and its mirror
// image's averaged (when plane is not nil), so what is done with it keeps
// a symmetric skeleton symmetric.
func symmetricRadius(s *static.Skeleton, radius []float64, plane *Plane, d float64) []float64 {
	out := append([]float64(nil), radius...)
	if plane == nil {
		return out
	}
	for j, p := range s.Joints {
		r := plane.Reflect(p)
		for k, q := range s.Joints {
			if k != j && q.Dist(r) < 1e-6*d {
				out[j] = (radius[j] + radius[k]) / 2
				break
			}
		}
	}
	return out
}

// anchor returns a joint of s that is not inside a chain: a fork, else
// a tip, else s.Root (a loop).
func anchor(s *static.Skeleton) int {
	adj := adjacency(len(s.Joints), s.Edges)
	tip := -1
	for j, a := range adj {
		if len(a) > 2 {
			return j
		}
		if len(a) < 2 && tip < 0 {
			tip = j
		}
	}
	if tip >= 0 {
		return tip
	}
	return s.Root
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
