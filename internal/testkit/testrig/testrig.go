// Package testrig builds small rigs with known answers for tests: a
// three-bone tube that bends in two planes, and the sequence a rig plays.
package testrig

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Tube returns a closed tube of length 3 along x (radius 0.25) skinned
// to a chain of three bones with joints at x = 1 and x = 2, smooth
// blends 0.3 wide around each joint, animated over frames by bending the
// two joints in different planes and moving the root. offset shifts the
// whole tube (for multi-shell tests).
func Tube(t testing.TB, frames int, offset linalg.Vec3) *rig.Rig {
	const rings, around = 60, 16
	var verts []linalg.Vec3
	var polys [][]int
	for r := 0; r <= rings; r++ {
		x := 3 * float64(r) / rings
		for a := 0; a < around; a++ {
			th := 2 * math.Pi * float64(a) / around
			verts = append(verts, linalg.Vec3{x, 0.25 * math.Cos(th), 0.25 * math.Sin(th)}.Add(offset))
		}
	}
	for r := 0; r < rings; r++ {
		for a := 0; a < around; a++ {
			i0, i1 := r*around+a, r*around+(a+1)%around
			polys = append(polys, []int{i0, i1, i1 + around, i0 + around})
		}
	}
	// Caps.
	c0 := len(verts)
	verts = append(verts, linalg.Vec3{0, 0, 0}.Add(offset), linalg.Vec3{3, 0, 0}.Add(offset))
	for a := 0; a < around; a++ {
		polys = append(polys, []int{c0, (a + 1) % around, a})
		base := rings * around
		polys = append(polys, []int{c0 + 1, base + a, base + (a+1)%around})
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		t.Fatal(err)
	}
	sk := rig.Skeleton{Joints: []rig.Joint{
		{Name: "a", Parent: rig.NoParent, Head: linalg.Vec3{0, 0, 0}.Add(offset)},
		{Name: "b", Parent: 0, Head: linalg.Vec3{1, 0, 0}.Add(offset)},
		{Name: "c", Parent: 1, Head: linalg.Vec3{2, 0, 0}.Add(offset)},
	}}
	skin := make(rig.Skin, len(verts))
	for i, v := range verts {
		x := v[0] - offset[0]
		w1 := smooth((x - 0.85) / 0.3)
		w2 := smooth((x - 1.85) / 0.3)
		skin[i] = rig.Influence{Joint: [4]rig.JointID{0, 1, 2}, Weight: [4]float64{1 - w1, w1 - w2, w2}}.Normalized()
	}
	c := rig.NewClip(&sk, "bend", 30, frames)
	for f := 0; f < frames; f++ {
		ph := 2 * math.Pi * float64(f) / float64(frames)
		c.Rotation[f*3+1] = linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, 0.9*math.Sin(ph))
		c.Rotation[f*3+2] = linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 0}, 0.8*math.Sin(2*ph+1))
		c.Translation[f*3] = offset.Add(linalg.Vec3{0.3 * math.Sin(ph), 0, 0.2 * math.Cos(ph)})
		c.Rotation[f*3] = linalg.QuatFromAxisAngle(linalg.Vec3{1, 0, 0}, 0.3*math.Sin(ph))
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin, Clips: []rig.Clip{c}}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}

func smooth(x float64) float64 {
	x = math.Max(0, math.Min(1, x))
	return x * x * (3 - 2*x)
}

// Play turns a rig into the sequence its clips play.
func Play(t testing.TB, r *rig.Rig) *seq.Sequence {
	s := seq.New(r.Mesh)
	for c, cl := range r.Clips {
		s.StartClip(cl.Name, cl.FPS)
		for f := 0; f < cl.Frames; f++ {
			if err := s.AddFrame(r.Frame(nil, c, f), "f"); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// SquashTube is Tube(t, frames, offset) whose middle joint also scales,
// at frame f by squash(s) with s = 1 + 0.35·sin(2πf/frames), the other
// joints by 1: the clip of a rig --stretch fits (rig.Clip.Scale).
func SquashTube(t testing.TB, frames int, offset linalg.Vec3, squash func(s float64) linalg.Vec3) *rig.Rig {
	r := Tube(t, frames, offset)
	c := &r.Clips[0]
	nj := r.Skeleton.Len()
	c.Scale = make([]linalg.Vec3, c.Frames*nj)
	for f := 0; f < c.Frames; f++ {
		for j := 0; j < nj; j++ {
			c.Scale[f*nj+j] = linalg.Vec3{1, 1, 1}
		}
		c.Scale[f*nj+1] = squash(1 + 0.35*math.Sin(2*math.Pi*float64(f)/float64(c.Frames)))
	}
	return r
}

// AlongBone squashes along the bone (local x) only: SquashTube's squash.
func AlongBone(s float64) linalg.Vec3 { return linalg.Vec3{s, 1, 1} }

// KeepArea squashes along the bone and stretches across it (local y) by
// the inverse: SquashTube's squash, non-uniform on two axes.
func KeepArea(s float64) linalg.Vec3 { return linalg.Vec3{s, 1 / s, 1} }
