package stretch

import (
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// The fit's sums (sums.go) subtract large, nearly equal terms: a frame's
// error is Σ|y|² less about as much, so its rounding grows with the
// distance of the rig from the origin against its size (a tube of length
// 3 at 100 units: 1.4% of the error; at 1000, 79%). The fit therefore
// runs with the rest pose moved to its centroid and every frame, targets
// and root translations alike, to the targets' centroid; rotations,
// scales and the other joints' translations do not change, and the root
// translations are moved back at the end.

// centring holds the shifts: the rest pose's centroid and each frame's.
type centring struct {
	rest   linalg.Vec3
	frames []linalg.Vec3
}

func newCentring(r *rig.Rig, s *seq.Sequence) centring {
	c := centring{rest: mesh.Centroid(r.Mesh.Verts), frames: make([]linalg.Vec3, s.F())}
	par.For(s.F(), 1, func(lo, hi int) {
		var pos []linalg.Vec3
		for f := lo; f < hi; f++ {
			pos = s.FrameInto(pos, f)
			c.frames[f] = mesh.Centroid(pos)
		}
	})
	return c
}

// shift moves r — its clips the fit's own copies, changed in place —
// into the centred frames, with a mesh and skeleton of its own.
func (c centring) shift(r *rig.Rig) {
	m := *r.Mesh
	m.Verts = make([]linalg.Vec3, len(r.Mesh.Verts))
	for i, v := range r.Mesh.Verts {
		m.Verts[i] = v.Sub(c.rest)
	}
	r.Mesh = &m
	r.Skeleton.Joints = append([]rig.Joint(nil), r.Skeleton.Joints...)
	for j := range r.Skeleton.Joints {
		r.Skeleton.Joints[j].Head = r.Skeleton.Joints[j].Head.Sub(c.rest)
	}
	c.roots(r, -1)
}

// unshift moves the fitted r back: orig's mesh and skeleton, the root
// translations by the frames' centroids.
func (c centring) unshift(r, orig *rig.Rig) {
	r.Mesh, r.Skeleton = orig.Mesh, orig.Skeleton
	c.roots(r, 1)
}

// roots adds sign times each frame's centroid to the root joints'
// translations (a root's translation is its posed head).
func (c centring) roots(r *rig.Rig, sign float64) {
	nj := r.Skeleton.Len()
	g := 0
	for k := range r.Clips {
		cl := &r.Clips[k]
		for f := 0; f < cl.Frames; f, g = f+1, g+1 {
			for j, jt := range r.Skeleton.Joints {
				if jt.Parent == rig.NoParent {
					cl.Translation[f*nj+j] = cl.Translation[f*nj+j].Add(c.frames[g].Scale(sign))
				}
			}
		}
	}
}
