package refit

import (
	"errors"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// ErrSkeletonPlacement says a given skeleton does not sit on the mesh:
// another scale or place (a centimetre skeleton on a metre mesh, a
// skeleton exported at another origin).
var ErrSkeletonPlacement = errors.New("the skeleton is not on the mesh")

// Placement is the similarity transform PlaceSkeleton applied: a joint at
// p goes to Scale·p + Shift.
type Placement struct {
	Scale float64
	Shift linalg.Vec3
}

// PlaceSkeleton checks that sk's joints lie on the mesh whose rest
// vertices are verts, and returns the skeleton to rig it with.
//
// Without fit the skeleton is taken as it is, and it is refused
// (ErrSkeletonPlacement, naming the farthest joint) when a joint lies
// outside the mesh's bounding box by more than its diagonal d, or when
// more than half the joints lie outside the box grown by 10% of d on each
// side: a skeleton in another scale or place. With fit, a similarity
// transform first maps the joints' box onto the mesh's: the centres meet,
// and the axis along which the joints spread most gets the mesh's extent
// along that axis (a skeleton spans its mesh's longest reach, while its
// other extents are thinner than the flesh); the joints must then pass the
// same checks. When the skeleton came with a mesh of its own (a body
// rig's file), ref holds that mesh's vertices and the fit maps ref's box
// onto the mesh's instead (scale by the diagonals' ratio, centres met),
// which is exact for the same body exported in other units or at
// another place. Names, order and parents never change.
func PlaceSkeleton(sk rig.Skeleton, verts []linalg.Vec3, fit bool, ref []linalg.Vec3) (rig.Skeleton, Placement, error) {
	pl := Placement{Scale: 1}
	if sk.Len() == 0 {
		return sk, pl, fmt.Errorf("%w: it has no joints", ErrSkeletonPlacement)
	}
	lo, hi := mesh.Bounds(verts)
	d := hi.Sub(lo).Norm()
	out := rig.Skeleton{Joints: append([]rig.Joint(nil), sk.Joints...)}
	if fit && len(ref) > 0 {
		rlo, rhi := mesh.Bounds(ref)
		if rd := rhi.Sub(rlo).Norm(); rd > 0 {
			pl.Scale = d / rd
		}
		pl.Shift = lo.Add(hi).Scale(0.5).Sub(rlo.Add(rhi).Scale(0.5 * pl.Scale))
		for j := range out.Joints {
			out.Joints[j].Head = out.Joints[j].Head.Scale(pl.Scale).Add(pl.Shift)
		}
	} else if fit {
		heads := metricHeads(&sk)
		jlo, jhi := mesh.Bounds(heads)
		je, me := jhi.Sub(jlo), hi.Sub(lo)
		a := 0
		for k := 1; k < 3; k++ {
			if je[k] > je[a] {
				a = k
			}
		}
		if je[a] > 0 {
			pl.Scale = me[a] / je[a]
		}
		pl.Shift = lo.Add(hi).Scale(0.5).Sub(jlo.Add(jhi).Scale(0.5 * pl.Scale))
		for j := range out.Joints {
			out.Joints[j].Head = out.Joints[j].Head.Scale(pl.Scale).Add(pl.Shift)
		}
	}
	far, farOut, outside := -1, 0.0, 0
	for j, jt := range out.Joints {
		dist := boxDistance(jt.Head, lo, hi)
		if !jt.Head.IsFinite() {
			dist = math.Inf(1)
		}
		if dist > farOut {
			far, farOut = j, dist
		}
		if dist > 0.1*d {
			outside++
		}
	}
	hint := ""
	if !fit {
		hint = " (--fit-skeleton maps it by a similarity transform)"
	}
	switch {
	case far >= 0 && farOut > d:
		return out, pl, fmt.Errorf("%w: joint %q lies %.3g diagonals outside the mesh's bounding box%s",
			ErrSkeletonPlacement, out.Joints[far].Name, farOut/d, hint)
	case 2*outside > len(out.Joints):
		return out, pl, fmt.Errorf("%w: %d of %d joints lie outside the mesh's bounding box, in another scale or place%s",
			ErrSkeletonPlacement, outside, len(out.Joints), hint)
	}
	return out, pl, nil
}

// boxDistance is the distance from p to the box [lo, hi] (0 inside).
func boxDistance(p, lo, hi linalg.Vec3) float64 {
	var s float64
	for k := 0; k < 3; k++ {
		switch {
		case p[k] < lo[k]:
			s += (lo[k] - p[k]) * (lo[k] - p[k])
		case p[k] > hi[k]:
			s += (p[k] - hi[k]) * (p[k] - hi[k])
		}
	}
	return math.Sqrt(s)
}
