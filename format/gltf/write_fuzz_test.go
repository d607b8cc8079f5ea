package gltf

import (
	"bytes"
	"fmt"
	"math"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// fuzzBytes hands out the bytes of a fuzz input, then zeros.
type fuzzBytes []byte

func (b *fuzzBytes) next() byte {
	if len(*b) == 0 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return c
}

// small returns a coordinate in [-16, 16) in steps of 1/8.
func (b *fuzzBytes) small() float64 { return float64(int8(b.next())) / 8 }

func (b *fuzzBytes) vec() linalg.Vec3 { return linalg.Vec3{b.small(), b.small(), b.small()} }

// name returns "prefix" plus a number for a byte under 192, else up to
// four raw bytes (possibly empty, repeated or not UTF-8).
func (b *fuzzBytes) name(prefix string, k int) string {
	c := b.next()
	if c < 192 {
		return fmt.Sprintf("%s%d", prefix, k)
	}
	n := int(c % 5)
	s := make([]byte, n)
	for i := range s {
		s[i] = b.next()
	}
	return string(s)
}

// fuzzRates are the frame rates a byte of 200 or more selects; below 200
// the rate is 1 + the byte.
var fuzzRates = []float64{24, 29.97, 0.5, 1e-3, 1e3, 1e6, 1e-300, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64,
	math.Inf(1), math.NaN(), 7, 1.0 / 3}

func (b *fuzzBytes) rate() float64 {
	c := b.next()
	if c < 200 {
		return 1 + float64(c)
	}
	return fuzzRates[int(c-200)%len(fuzzRates)]
}

// rigFromBytes builds a rig of 1–5 joints (heads, parents and names from
// the bytes), one triangle near each joint's head skinned to 1–4 joints,
// and 0–2 clips of 1–4 frames with rotations from the bytes (normalized,
// or zero), root translations, and — when a clip's flag
// byte is odd — free translations of the other joints too. The rig may be
// invalid (names, rates, rotations); Write must then refuse it.
func rigFromBytes(data []byte) *rig.Rig {
	b := fuzzBytes(data)
	nj := 1 + int(b.next()%5)
	sk := rig.Skeleton{Joints: make([]rig.Joint, nj)}
	for j := range sk.Joints {
		parent := rig.NoParent
		if j > 0 {
			parent = rig.JointID(int(b.next()) % j)
		}
		sk.Joints[j] = rig.Joint{Name: b.name("j", j), Parent: parent, Head: b.vec()}
	}
	var verts []linalg.Vec3
	var faces [][]int
	for j := range sk.Joints {
		h := sk.Joints[j].Head
		verts = append(verts, h.Add(b.vec()), h.Add(linalg.Vec3{1, 0, 0}), h.Add(linalg.Vec3{0, 1, 0}))
		faces = append(faces, []int{3 * j, 3*j + 1, 3*j + 2})
	}
	m, err := mesh.New(verts, faces)
	if err != nil {
		panic(err) // three distinct indices per face: cannot fail
	}
	skin := make(rig.Skin, len(verts))
	for i := range skin {
		var in rig.Influence
		for k, n := 0, 1+int(b.next()%4); k < n; k++ {
			j, w := rig.JointID(int(b.next())%nj), float64(b.next())
			slot := k
			for l := 0; l < k; l++ {
				if in.Joint[l] == j && in.Weight[l] > 0 {
					slot = l // one joint listed twice: add up
				}
			}
			in.Joint[slot], in.Weight[slot] = j, in.Weight[slot]+w
		}
		skin[i] = in.Normalized()
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin}
	for c, n := 0, int(b.next()%3); c < n; c++ {
		name := b.name("clip", c)
		fps := b.rate()
		frames := 1 + int(b.next()%4)
		free := b.next()%2 == 1
		clip := rig.NewClip(&sk, name, fps, frames)
		for f := 0; f < frames; f++ {
			for j := 0; j < nj; j++ {
				k := f*nj + j
				q := linalg.Quat{W: b.small(), X: b.small(), Y: b.small(), Z: b.small()}
				if q != (linalg.Quat{}) {
					q = q.Normalize() // the zero quaternion stays: no rotation, refused
				}
				clip.Rotation[k] = q
				if j == 0 {
					clip.Translation[k] = b.vec()
				} else if free {
					clip.Translation[k] = clip.Translation[k].Add(b.vec())
				}
			}
		}
		r.Clips = append(r.Clips, clip)
	}
	return r
}

// seedClip describes a clip for rigSeed: the rate byte (see rate), its
// frames, and per frame f and joint j a turn of angle(f, j)/8 radians
// about axis (a unit axis) and a root move of (f/8, 0, 0); free clips
// also move every other joint by (0, f/8, 0).
type seedClip struct {
	rate   byte
	frames int
	free   bool
	axis   int
	angle  func(f, j int) float64
}

// rigSeed encodes for rigFromBytes a skeleton (heads in steps of 1/8
// within ±16, names "j<k>") whose joint j carries its own triangle, and
// clips.
func rigSeed(parents []int, heads []linalg.Vec3, clips ...seedClip) []byte {
	q := func(x float64) byte { return byte(int8(math.Round(8 * x))) }
	out := []byte{byte(len(parents) - 1)}
	for j, p := range parents {
		if j > 0 {
			out = append(out, byte(p))
		}
		out = append(out, 0, q(heads[j][0]), q(heads[j][1]), q(heads[j][2]))
	}
	out = append(out, make([]byte, 3*len(parents))...) // triangles' first corners at the heads
	for i := 0; i < 3*len(parents); i++ {
		out = append(out, 0, byte(i/3), 255) // one influence: the joint's own
	}
	out = append(out, byte(len(clips)))
	for _, c := range clips {
		free := byte(0)
		if c.free {
			free = 1
		}
		out = append(out, 0, c.rate, byte(c.frames-1), free)
		for f := 0; f < c.frames; f++ {
			for j := range parents {
				a := c.angle(f, j) / 2
				rot := [4]float64{math.Cos(a)} // W, X, Y, Z
				rot[1+c.axis] = math.Sin(a)
				out = append(out, q(rot[0]), q(rot[1]), q(rot[2]), q(rot[3]))
				switch {
				case j == 0:
					out = append(out, byte(f), 0, 0)
				case c.free:
					out = append(out, 0, byte(f), 0)
				}
			}
		}
	}
	return out
}

// FuzzWriteRoundTrip writes a rig built from the fuzz bytes with Write
// and reads it back with ReadScene: Write refuses an invalid rig with an
// error, and whatever it writes reads back as the same rig within float32
// precision — skeleton, skin, mesh and every clip's poses — or is
// refused. A file that reads back as something else is a failure.
func FuzzWriteRoundTrip(f *testing.F) {
	chain := []int{-1, 0, 1}
	line := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}
	bend := func(f, j int) float64 { return float64(f * j) }
	for _, seed := range [][]byte{
		rigSeed(chain, line),
		rigSeed(chain, line, seedClip{rate: 23, frames: 4, angle: bend}),
		rigSeed([]int{-1, 0, 0}, []linalg.Vec3{{0, 0, 0}, {1, 1, 0}, {-1, 1, 0}},
			seedClip{rate: 200, frames: 3, axis: 2, angle: bend}, seedClip{rate: 29, frames: 2, free: true, axis: 1, angle: bend}),
		rigSeed([]int{-1}, []linalg.Vec3{{0, 0, 0}}, seedClip{rate: 205, frames: 4, angle: bend}), // 1e6 fps
		{0, 255, 3, 'a', 0xff, 'b', 'c'}, // one joint whose name is not UTF-8
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := rigFromBytes(data)
		var buf bytes.Buffer
		werr := Write(&buf, r, format.WriteOptions{})
		if verr := r.Validate(); verr != nil {
			if werr == nil {
				t.Fatalf("Write accepted an invalid rig (%v)", verr)
			}
			return
		}
		if werr != nil {
			return // refused: allowed, as long as nothing is written that does not read back
		}
		sc, err := ReadScene(fstest.MapFS{"r.glb": {Data: buf.Bytes()}}, "r.glb", format.SceneOptions{})
		if err != nil {
			t.Fatalf("Write wrote a file ReadScene refuses: %v", err)
		}
		sameRig(t, r, sc)
	})
}

// sameRig fails t unless the scene read back holds r within float32
// precision.
func sameRig(t *testing.T, r *rig.Rig, sc *format.Scene) {
	t.Helper()
	back := sc.Rig
	if back == nil {
		t.Fatal("no rig read back")
	}
	// Tolerances relative to the largest coordinate, float32 rounding
	// compounded down a chain of at most five joints.
	size := 1.0
	grow := func(v linalg.Vec3) {
		for _, x := range v {
			size = max(size, math.Abs(x))
		}
	}
	for _, v := range r.Mesh.Verts {
		grow(v)
	}
	for _, c := range r.Clips {
		for _, v := range c.Translation {
			grow(v)
		}
	}
	tol := 1e-5 * size
	if len(back.Mesh.Verts) != len(r.Mesh.Verts) || len(back.Mesh.Tris) != len(r.Mesh.Tris) {
		t.Fatalf("mesh of %d vertices, %d triangles read back as %d, %d", len(r.Mesh.Verts), len(r.Mesh.Tris), len(back.Mesh.Verts), len(back.Mesh.Tris))
	}
	for i, v := range r.Mesh.Verts {
		if d := v.Dist(back.Mesh.Verts[i]); d > tol {
			t.Fatalf("vertex %d at %v read back at %v", i, v, back.Mesh.Verts[i])
		}
	}
	for k, tri := range r.Mesh.Tris {
		if back.Mesh.Tris[k] != tri {
			t.Fatalf("triangle %d %v read back as %v", k, tri, back.Mesh.Tris[k])
		}
	}
	// The reader may list the joints in another order (parents still
	// first): match them by name, which Validate makes unique.
	if back.Skeleton.Len() != r.Skeleton.Len() {
		t.Fatalf("%d joints read back as %d", r.Skeleton.Len(), back.Skeleton.Len())
	}
	byName := map[string]rig.JointID{}
	for j, jt := range back.Skeleton.Joints {
		byName[jt.Name] = rig.JointID(j)
	}
	perm := make([]rig.JointID, r.Skeleton.Len()) // r's joint → back's
	for j, jt := range r.Skeleton.Joints {
		k, ok := byName[jt.Name]
		if !ok {
			t.Fatalf("joint %d %q not read back (joints %+v)", j, jt.Name, back.Skeleton.Joints)
		}
		perm[j] = k
	}
	for j, jt := range r.Skeleton.Joints {
		got := back.Skeleton.Joints[perm[j]]
		parentOK := got.Parent == rig.NoParent && jt.Parent == rig.NoParent || jt.Parent != rig.NoParent && got.Parent == perm[jt.Parent]
		if !parentOK || got.Head.Dist(jt.Head) > tol {
			t.Fatalf("joint %d %q (parent %d, head %v) read back as %q (parent %d, head %v)", j, jt.Name, jt.Parent, jt.Head, got.Name, got.Parent, got.Head)
		}
	}
	for i, in := range r.Skin {
		for k := range in.Joint {
			in.Joint[k] = perm[in.Joint[k]]
		}
		if d := weightDiff(in, back.Skin[i], r.Skeleton.Len()); d > 1e-6 {
			t.Fatalf("vertex %d: weights %+v (joints renumbered) read back as %+v", i, in, back.Skin[i])
		}
	}
	if len(back.Clips) != len(r.Clips) {
		t.Fatalf("%d clips read back as %d", len(r.Clips), len(back.Clips))
	}
	for k := range r.Clips {
		c, got := &r.Clips[k], &back.Clips[k]
		name := c.Name
		if name == "" {
			name = fmt.Sprintf("clip_%d", k) // as the reader names an unnamed animation
		}
		if got.Name != name || got.Frames != c.Frames {
			t.Fatalf("clip %q of %d frames read back as %q of %d", c.Name, c.Frames, got.Name, got.Frames)
		}
		// One frame has no spacing to tell its rate.
		if c.Frames > 1 && math.Abs(got.FPS-c.FPS) > 1e-5*c.FPS {
			t.Fatalf("clip %q at %v fps read back at %v", c.Name, c.FPS, got.FPS)
		}
		for f := 0; f < c.Frames; f++ {
			want, have := r.Skeleton.Pose(c, f, nil), back.Skeleton.Pose(got, f, nil)
			for j := range want {
				if d := affineDiff(want[j], have[perm[j]]); d > tol {
					t.Fatalf("clip %q frame %d joint %d: pose %+v read back as %+v", c.Name, f, j, want[j], have[perm[j]])
				}
			}
		}
	}
}

// weightDiff is the largest difference of two influences' weights per joint.
func weightDiff(a, b rig.Influence, joints int) float64 {
	dense := make([]float64, joints)
	for k := range a.Joint {
		dense[a.Joint[k]] += a.Weight[k]
	}
	for k := range b.Joint {
		dense[b.Joint[k]] -= b.Weight[k]
	}
	d := 0.0
	for _, x := range dense {
		d = max(d, math.Abs(x))
	}
	return d
}

// affineDiff is the largest entry of the difference of two transforms.
func affineDiff(a, b linalg.Affine) float64 {
	x, y := a.Mat4(), b.Mat4()
	d := 0.0
	for i := range x {
		d = max(d, math.Abs(x[i]-y[i]))
	}
	return d
}
