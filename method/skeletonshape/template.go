package skeletonshape

import (
	"errors"
	"fmt"
	"strings"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

// ErrLayout is returned (wrapped) by Template when the mesh does not fit
// the layout asked for.
var ErrLayout = errors.New("the mesh does not fit the layout")

// Template returns the layout asked for (Biped or Quadruped) fitted to
// s, a skeleton of m as Shape returns it: one joint per part in the
// convention Name uses — hips (the root), spine, chest, neck, head, for a
// quadruped a tail when the mesh has one, and thigh, shin, foot,
// upper_arm, forearm, hand .L and .R — each placed on s: hips, chest and
// head where Name found them, spine and neck half way along s's path
// between them (by length), a limb's first and last joints at its chain's
// ends and its middle at the chain's joint farthest off the line joining
// them (the knee or elbow; half way when the chain is straight). up is
// the mesh's up direction (zero: +Y). It fails, wrapping ErrLayout, when
// m has no mirror plane, or s has not that layout: two mirrored pairs of
// limbs off the plane and a head, the pairs' tips below both attachments
// for a quadruped (four legs) and not for a biped.
func Template(m *mesh.Mesh, s *static.Skeleton, layout string, up linalg.Vec3) (*static.Skeleton, error) {
	if layout != Biped && layout != Quadruped {
		return nil, fmt.Errorf("skeletonshape: template %q: want %s or %s", layout, Biped, Quadruped)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	pl, ok := MirrorPlane(m)
	if !ok || pl.Residual > SymmetricResidual {
		return nil, fmt.Errorf("%w %q: the mesh has no mirror plane (best residual %.2f%% of the diagonal, symmetric up to %.1f%%)", ErrLayout, layout, pl.Residual, SymmetricResidual)
	}
	if up == (linalg.Vec3{}) {
		up = linalg.Vec3{0, 1, 0}
	}
	d := mesh.Diagonal(m.Verts)
	got, names := Name(s, pl, up.Unit(), d)
	switch {
	case names == nil:
		return nil, fmt.Errorf("%w %q: its skeleton is not two mirrored pairs of limbs and a head on a spine (found: %s)", ErrLayout, layout, describe(s, pl, d))
	case got != layout:
		why := "the ends of both limb pairs lie below where the pairs attach: four legs"
		if got == Biped {
			why = "one limb pair ends above where it attaches: arms, not front legs"
		}
		return nil, fmt.Errorf("%w %q: it reads as a %s (%s)", ErrLayout, layout, got, why)
	}
	byName := map[string]int{}
	for j, n := range names {
		if n != "" {
			byName[n] = j
		}
	}
	parent, _ := s.Tree()
	// chain lists the joints named base, base.001, … (with suffix) in
	// order.
	chain := func(base, suffix string) []linalg.Vec3 {
		var out []linalg.Vec3
		for k := 0; ; k++ {
			name := base
			if k > 0 {
				name = fmt.Sprintf("%s.%03d", base, k)
			}
			j, ok := byName[name+suffix]
			if !ok {
				if k == 0 {
					continue
				}
				return out
			}
			out = append(out, s.Joints[j])
		}
	}
	// path returns the joints of s from a to b along the tree.
	path := func(a, b int) []linalg.Vec3 {
		up := map[int]int{}
		for x, k := a, 0; x >= 0; x, k = parent[x], k+1 {
			up[x] = k
		}
		var down []int
		x := b
		for ; x >= 0; x = parent[x] {
			if _, ok := up[x]; ok {
				break
			}
			down = append(down, x)
		}
		var out []linalg.Vec3
		for y := a; y != x; y = parent[y] {
			out = append(out, s.Joints[y])
		}
		out = append(out, s.Joints[x])
		for k := len(down) - 1; k >= 0; k-- {
			out = append(out, s.Joints[down[k]])
		}
		return out
	}
	t := &static.Skeleton{}
	add := func(name string, p linalg.Vec3, par int) int {
		t.Joints = append(t.Joints, p)
		t.Names = append(t.Names, name)
		j := len(t.Joints) - 1
		if par >= 0 {
			t.Edges = append(t.Edges, [2]int{par, j})
		}
		return j
	}
	hips, chest, head := byName["hips"], byName["chest"], byName["head"]
	h := add("hips", s.Joints[hips], -1)
	sp := add("spine", alongPath(path(hips, chest), 0.5), h)
	c := add("chest", s.Joints[chest], sp)
	nk := add("neck", alongPath(path(chest, head), 0.5), c)
	add("head", s.Joints[head], nk)
	if layout == Quadruped {
		if tail := chain("tail", ""); len(tail) > 0 {
			add("tail", tail[len(tail)-1], h)
		}
	}
	limb := func(first, mid, last string, attach int) {
		for _, side := range []string{".L", ".R"} {
			var pts []linalg.Vec3
			if j, ok := byName[first+side]; ok {
				pts = append(pts, s.Joints[j])
			}
			pts = append(pts, chain(mid, side)...)
			if j, ok := byName[last+side]; ok {
				pts = append(pts, s.Joints[j])
			}
			if len(pts) < 2 {
				// A limb of one joint: it runs from its attachment.
				pts = append([]linalg.Vec3{t.Joints[attach]}, pts...)
			}
			a := add(first+side, pts[0], attach)
			b := add(mid+side, knee(pts), a)
			add(last+side, pts[len(pts)-1], b)
		}
	}
	limb("thigh", "shin", "foot", h)
	limb("upper_arm", "forearm", "hand", c)
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("skeletonshape: template: %w", err)
	}
	return t, nil
}

// alongPath returns the point a fraction f of the way along the polyline
// pts, by length.
func alongPath(pts []linalg.Vec3, f float64) linalg.Vec3 {
	total := 0.0
	for k := 1; k < len(pts); k++ {
		total += pts[k].Dist(pts[k-1])
	}
	want := f * total
	for k := 1; k < len(pts); k++ {
		l := pts[k].Dist(pts[k-1])
		if want <= l && l > 0 {
			return pts[k-1].Add(pts[k].Sub(pts[k-1]).Scale(want / l))
		}
		want -= l
	}
	return pts[len(pts)-1]
}

// knee returns the inner point of the chain pts farthest from the line
// joining its ends, or its middle by length when no inner point stands
// off that line by more than a hundredth of the chain's span.
func knee(pts []linalg.Vec3) linalg.Vec3 {
	a, b := pts[0], pts[len(pts)-1]
	best, far := -1, 0.01*a.Dist(b)
	for k := 1; k < len(pts)-1; k++ {
		if h := segDist(pts[k], a, b); h > far {
			best, far = k, h
		}
	}
	if best < 0 {
		return alongPath(pts, 0.5)
	}
	return pts[best]
}

// describe says what limbs s has off plane, for an error.
func describe(s *static.Skeleton, pl Plane, d float64) string {
	adj := adjacency(len(s.Joints), s.Edges)
	tips, off := 0, 0
	for j, p := range s.Joints {
		if len(adj[j]) == 1 {
			tips++
			if abs(pl.Side(p)) > 1e-9*d {
				off++
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d joints, %d tips, %d of them off the mirror plane", len(s.Joints), tips, off)
	return b.String()
}
