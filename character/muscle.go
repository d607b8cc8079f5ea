package character

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Flex replays r's clips as Sequence does, with a muscle-like bulge added
// on the segment of each named joint (from its head to its first child's):
// a non-rigid term no skeleton of the rig's joints reproduces, for testing
// helper bones. Generate's rigs and Sequence's frames are unchanged.
//
// A vertex whose dominant joint is j, at parameter t ∈ [0, 1] along the
// segment, moves by amount · bend(f) · sin(πt) · max(0, n̂·d̂)² along d̂:
// d̂ is the side the child bends toward (the mean direction, across r's
// frames, of the child's tip in j's frame, perpendicular to the segment),
// n̂ the vertex's radial direction from the segment, and bend(f) ∈ [0, 1]
// the child's rotation angle at frame f over its largest. The bulge turns
// with joint j. amount is in model units (0.02 on the biped's arms is a
// biceps' swell).
func Flex(r *rig.Rig, joints []string, amount float64) (*seq.Sequence, error) {
	s := Sequence(r)
	ch := r.Skeleton.Children()
	nj := r.Skeleton.Len()
	dom := make([]rig.JointID, len(r.Mesh.Verts))
	for i, in := range r.Skin {
		dom[i] = in.Dominant()
	}
	for _, name := range joints {
		j := rig.NoParent
		for k, jt := range r.Skeleton.Joints {
			if jt.Name == name {
				j = rig.JointID(k)
			}
		}
		if j == rig.NoParent || len(ch[j]) == 0 {
			return nil, fmt.Errorf("character: no joint %q with a child to flex", name)
		}
		c := ch[j][0]
		head := r.Skeleton.Joints[j].Head
		axis := r.Skeleton.Joints[c].Head.Sub(head)
		length := axis.Norm()
		axis = axis.Scale(1 / length)
		// The side the child bends toward and its largest bend.
		var side linalg.Vec3
		var most float64
		for k := range r.Clips {
			cl := &r.Clips[k]
			for f := 0; f < cl.Frames; f++ {
				q := cl.Rotation[f*nj+int(c)]
				tip := q.Rotate(axis)
				side = side.Add(tip.Sub(axis.Scale(tip.Dot(axis))))
				most = max(most, q.Angle())
			}
		}
		if side.Norm() == 0 || most == 0 {
			return nil, fmt.Errorf("character: joint %q's child does not bend", name)
		}
		side = side.Unit()
		g := 0
		for k := range r.Clips {
			cl := &r.Clips[k]
			var pose []linalg.Affine
			for f := 0; f < cl.Frames; f++ {
				bend := cl.Rotation[f*nj+int(c)].Angle() / most
				pose = r.Skeleton.Pose(cl, f, pose)
				for i, x := range r.Mesh.Verts {
					if dom[i] != j {
						continue
					}
					t := x.Sub(head).Dot(axis) / length
					if t <= 0 || t >= 1 {
						continue
					}
					radial := x.Sub(head).Sub(axis.Scale(t * length))
					if radial.Norm() == 0 {
						continue
					}
					facing := max(0, radial.Unit().Dot(side))
					d := amount * bend * math.Sin(math.Pi*t) * facing * facing
					p := &s.Frames[(g+f)*len(r.Mesh.Verts)+i]
					*p = p.Vec3().Add(pose[j].M.MulVec(side.Scale(d))).Vec3f()
				}
			}
			g += cl.Frames
		}
	}
	return s, nil
}
