// Package fuzzmesh turns fuzz bytes into small inputs for the methods'
// fuzz targets: a closed tube of at most 66 vertices (rings of 3–8
// vertices, each ring scaled and every vertex nudged by the bytes, so it
// may be thin, flat, pinched or self-intersecting) and an animation of it
// by a chain of 1–4 joints along its axis turned by fuzzed rotations, with
// the bytes left over as per-vertex noise. Every byte string gives an
// input, and the same bytes always give the same one: the methods must
// answer each with a rig or a clear error.
package fuzzmesh

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Bounds on what the bytes can ask for, so each input is quick to rig.
const (
	MaxRings  = 8
	MaxAround = 8
	MaxJoints = 4
	MaxFrames = 8
)

// reader hands out the input's bytes, then zeros.
type reader []byte

func (b *reader) next() byte {
	if len(*b) == 0 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return c
}

// unit returns the next byte as a value in [0, 1].
func (b *reader) unit() float64 { return float64(b.next()) / 255 }

// signed returns the next byte as a value in [-1, 1).
func (b *reader) signed() float64 { return float64(int8(b.next())) / 128 }

// Tube is the shape the bytes describe: the mesh, its length along x and
// where its rings sit.
type Tube struct {
	Mesh   *mesh.Mesh
	Length float64
	Rings  int
	Around int
}

// NewTube reads a tube from data and returns it with the bytes it did not
// use. Bytes: rings (2–8), vertices per ring (3–8), length (1–5), then per
// ring a radius (0–0.5 of the length; 0 pinches the ring to one point)
// and per vertex a nudge of up to a quarter of the length on each axis
// when the nudge flag byte is odd. Two cap vertices close the ends.
func NewTube(data []byte) (*Tube, []byte, error) {
	b := reader(data)
	rings := 2 + int(b.next())%(MaxRings-1)
	around := 3 + int(b.next())%(MaxAround-2)
	length := 1 + 4*b.unit()
	nudge := b.next()%2 == 1
	var verts []linalg.Vec3
	for r := 0; r < rings; r++ {
		x := length * float64(r) / float64(rings-1)
		rad := 0.5 * length * b.unit()
		for a := 0; a < around; a++ {
			th := 2 * math.Pi * float64(a) / float64(around)
			verts = append(verts, linalg.Vec3{x, rad * math.Cos(th), rad * math.Sin(th)})
		}
	}
	if nudge {
		for i := range verts {
			for k := 0; k < 3; k++ {
				verts[i][k] += length / 4 * b.signed()
			}
		}
	}
	var polys [][]int
	for r := 0; r+1 < rings; r++ {
		for a := 0; a < around; a++ {
			i0, i1 := r*around+a, r*around+(a+1)%around
			polys = append(polys, []int{i0, i1, i1 + around}, []int{i0, i1 + around, i0 + around})
		}
	}
	c0 := len(verts)
	verts = append(verts, linalg.Vec3{-length / 8, 0, 0}, linalg.Vec3{length * 9 / 8, 0, 0})
	last := (rings - 1) * around
	for a := 0; a < around; a++ {
		polys = append(polys, []int{c0, (a + 1) % around, a}, []int{c0 + 1, last + a, last + (a+1)%around})
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		return nil, nil, err
	}
	return &Tube{Mesh: m, Length: length, Rings: rings, Around: around}, b, nil
}

// Sequence reads a tube and its animation from data. Bytes after the
// tube's: joints (1–4, evenly spaced along the axis, each parent the one
// before), frames (2–8), a blend width, then per frame a root move and per
// joint an axis-angle rotation (three bytes; up to π), and what remains
// as noise added to the frames' vertices (up to 1/64 of the length each).
// Vertices are skinned to the joints by their x, blended over the width
// around each joint.
func Sequence(data []byte) (*seq.Sequence, error) {
	tube, rest, err := NewTube(data)
	if err != nil {
		return nil, err
	}
	b := reader(rest)
	nj := 1 + int(b.next())%MaxJoints
	frames := 2 + int(b.next())%(MaxFrames-1)
	width := 0.3 * b.unit() * tube.Length / float64(nj)
	sk := rig.Skeleton{Joints: make([]rig.Joint, nj)}
	for j := range sk.Joints {
		sk.Joints[j] = rig.Joint{Name: fmt.Sprintf("j%d", j), Parent: rig.JointID(j - 1),
			Head: linalg.Vec3{tube.Length * float64(j) / float64(nj)}}
	}
	m := tube.Mesh
	skin := make(rig.Skin, len(m.Verts))
	for i, v := range m.Verts {
		var in rig.Influence
		for j := 0; j < nj; j++ {
			// Weight of joint j: 1 between its head and the next, ramped
			// over width around both ends.
			lo, hi := sk.Joints[j].Head[0], math.Inf(1)
			if j+1 < nj {
				hi = sk.Joints[j+1].Head[0]
			}
			if j == 0 {
				lo = math.Inf(-1)
			}
			in.Joint[j] = rig.JointID(j)
			in.Weight[j] = ramp(v[0]-lo, width) * ramp(hi-v[0], width)
		}
		skin[i] = in.Normalized()
	}
	clip := rig.NewClip(&sk, "fuzz", 30, frames)
	for f := 0; f < frames; f++ {
		clip.Translation[f*nj] = linalg.Vec3{b.signed(), b.signed(), b.signed()}.Scale(tube.Length / 4)
		for j := 0; j < nj; j++ {
			axis := linalg.Vec3{b.signed(), b.signed(), b.signed()}
			angle := math.Pi * axis.Norm() / math.Sqrt(3)
			if axis.Norm() == 0 {
				continue
			}
			clip.Rotation[f*nj+j] = linalg.QuatFromAxisAngle(axis.Scale(1/axis.Norm()), angle)
		}
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin, Clips: []rig.Clip{clip}}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	s := seq.New(m)
	s.StartClip("fuzz", 30)
	noise := tube.Length / 64
	for f := 0; f < frames; f++ {
		verts := r.Frame(nil, 0, f)
		for i := range verts {
			if len(b) == 0 {
				break
			}
			verts[i] = verts[i].Add(linalg.Vec3{b.signed(), b.signed(), b.signed()}.Scale(noise))
		}
		if err := s.AddFrame(verts, fmt.Sprintf("fuzz#%d", f+1)); err != nil {
			return nil, err
		}
	}
	return s, s.Validate()
}

// ramp is 0 at d ≤ −w/2, 1 at d ≥ w/2, linear between (a step when w
// is 0).
func ramp(d, w float64) float64 {
	if w <= 0 {
		if d >= 0 {
			return 1
		}
		return 0
	}
	return math.Max(0, math.Min(1, d/w+0.5))
}

// Seeds are inputs for Sequence (and NewTube) that make well-formed
// animations: a tube of 6 rings of 6 bending at two joints, a box-like
// tube (4 around) on one joint that turns and slides, a twisting
// three-joint tube with noise, and a tube pinched at its middle ring.
func Seeds() [][]byte {
	// tube returns the tube bytes: rings, around, length byte, radii.
	tube := func(rings, around int, length byte, radii ...byte) []byte {
		out := []byte{byte(rings - 2), byte(around - 3), length, 0}
		for r := 0; r < rings; r++ {
			out = append(out, radii[r%len(radii)])
		}
		return out
	}
	// anim returns the animation bytes: per frame f a root move and a
	// turn of every joint about axis by f·step (bytes of the axis-angle).
	anim := func(joints, frames int, width byte, axis [3]int8, step int8) []byte {
		out := []byte{byte(joints - 1), byte(frames - 2), width}
		for f := 0; f < frames; f++ {
			out = append(out, byte(int8(4*f)), 0, 0)
			for j := 0; j < joints; j++ {
				for k := 0; k < 3; k++ {
					out = append(out, byte(axis[k]*int8(f)*step/8))
				}
			}
		}
		return out
	}
	noise := make([]byte, 64)
	for i := range noise {
		noise[i] = byte(i * 37)
	}
	return [][]byte{
		append(tube(6, 6, 128, 40), anim(3, 6, 128, [3]int8{0, 0, 8}, 5)...),
		append(tube(3, 4, 64, 120), anim(1, 4, 0, [3]int8{8, 8, 0}, 4)...),
		append(append(tube(8, 5, 160, 70, 100), anim(3, 8, 255, [3]int8{8, 0, 0}, 3)...), noise...),
		append(tube(5, 6, 100, 90, 90, 0, 90, 90), anim(2, 5, 60, [3]int8{0, 8, 0}, 6)...),
	}
}
