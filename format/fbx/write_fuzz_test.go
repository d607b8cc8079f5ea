package fbx

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

// fuzzRig builds a small valid rig from bytes (zeros past the end): up to
// five joints under one root, a fan of triangles over up to eight
// vertices, one to four influences per vertex, one or two clips of up to
// five frames with any rotations and, for some joints, translations off
// their rest offsets and scales of 0.5 to 2. nil when the bytes make no valid rig.
func fuzzRig(data []byte) *rig.Rig {
	k := 0
	next := func() byte {
		if k >= len(data) {
			return 0
		}
		k++
		return data[k-1]
	}
	small := func() float64 { return float64(int8(next())) / 16 }
	vec := func() linalg.Vec3 { return linalg.Vec3{small(), small(), small()} }
	nj := 1 + int(next()%5)
	sk := rig.Skeleton{}
	for j := 0; j < nj; j++ {
		p := rig.NoParent
		if j > 0 {
			p = rig.JointID(int(next()) % j)
		}
		name := fmt.Sprintf("j%d", j)
		if next() > 200 {
			name += "\x00\x01x" // FBX's name separator inside a name
		}
		sk.Joints = append(sk.Joints, rig.Joint{Name: name, Parent: p, Head: vec()})
	}
	nv := 3 + int(next()%6)
	verts := make([]linalg.Vec3, nv)
	for i := range verts {
		verts[i] = vec()
	}
	var polys [][]int
	for i := 1; i+1 < nv; i++ {
		polys = append(polys, []int{0, i, i + 1})
	}
	if next()%2 == 0 && nv >= 4 {
		polys = [][]int{{0, 1, 2, 3}}
		for i := 3; i+1 < nv; i++ {
			polys = append(polys, []int{0, i, i + 1})
		}
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		return nil
	}
	skin := make(rig.Skin, nv)
	for i := range skin {
		var in rig.Influence
		for s := 0; s < 1+int(next()%4); s++ {
			in.Joint[s] = rig.JointID(int(next()) % nj)
			in.Weight[s] = 1 + float64(next()%8)
		}
		for a := 1; a < 4; a++ { // one weight per joint
			for b := 0; b < a; b++ {
				if in.Weight[a] > 0 && in.Joint[a] == in.Joint[b] {
					in.Weight[a] = 0
				}
			}
		}
		skin[i] = in.Normalized()
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin}
	for c := 0; c < 1+int(next()%2); c++ {
		frames := 1 + int(next()%5)
		cl := rig.NewClip(&sk, fmt.Sprintf("clip%d", c), []float64{24, 30, 25}[next()%3], frames)
		for f := 0; f < frames; f++ {
			for j := 0; j < nj; j++ {
				q := linalg.Quat{W: small() + 0.01, X: small(), Y: small(), Z: small()}.Normalize()
				cl.Rotation[f*nj+j] = q
				if j == 0 || next() > 220 {
					cl.Translation[f*nj+j] = vec()
				}
				if b := next(); b > 200 { // a scale track (--stretch), 0.5 to 2 per axis
					if cl.Scale == nil {
						cl.Scale = make([]linalg.Vec3, frames*nj)
						for k := range cl.Scale {
							cl.Scale[k] = linalg.Vec3{1, 1, 1}
						}
					}
					cl.Scale[f*nj+j] = linalg.Vec3{0.5 + float64(b-200)/37, 0.5 + float64(next()%128)/85, 0.5 + float64(next()%128)/85}
				}
			}
		}
		r.Clips = append(r.Clips, cl)
	}
	if r.Validate() != nil {
		return nil
	}
	return r
}

// FuzzWriteRoundTrip: any valid rig writes, reads back with as many
// vertices, polygons, joints, clips and frames, and plays as it did
// within the precision of float32 keys.
func FuzzWriteRoundTrip(f *testing.F) {
	f.Add([]byte{2, 0, 0, 16, 0, 0, 0, 0, 16, 0, 5, 1, 7, 3, 2})
	f.Add([]byte{4, 0, 201, 1, 1, 250, 3, 9, 2, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 1, 3, 4, 1, 230})
	f.Add(scaledSeed)
	f.Fuzz(func(t *testing.T, data []byte) {
		r := fuzzRig(data)
		if r == nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			t.Fatalf("a valid rig was not written: %v", err)
		}
		sc, err := ReadScene(fstest.MapFS{"r.fbx": {Data: buf.Bytes()}}, "r.fbx", format.SceneOptions{})
		if err != nil {
			t.Fatalf("our own file was not read: %v", err)
		}
		if sc.Rig == nil || sc.Rig.Skeleton.Len() != r.Skeleton.Len() || len(sc.Mesh.Verts) != len(r.Mesh.Verts) ||
			sc.Mesh.NumPolys() != r.Mesh.NumPolys() || len(sc.Sequence.Clips) != len(r.Clips) {
			t.Fatalf("read back a different rig")
		}
		scale := 1.0
		if r.HasScale() { // up to 2 per joint down a chain of up to five
			scale = 32
		}
		for _, v := range r.Mesh.Verts {
			scale = math.Max(scale, v.Norm())
		}
		for _, j := range r.Skeleton.Joints {
			scale = math.Max(scale, j.Head.Norm())
		}
		at := 0
		for c := range r.Clips {
			if sc.Sequence.Clips[c].Len() != r.Clips[c].Frames {
				t.Fatalf("clip %d: %d frames, want %d", c, sc.Sequence.Clips[c].Len(), r.Clips[c].Frames)
			}
			var want []linalg.Vec3
			for fr := 0; fr < r.Clips[c].Frames; fr++ {
				want = r.Frame(want, c, fr)
				for i, v := range sc.Sequence.FrameInto(nil, at) {
					// float32 keys: angles to ~1e-5°, positions to ~1e-7 of scale,
					// through chains of up to five joints.
					if d := v.Dist(want[i]); d > 1e-4*scale*float64(r.Skeleton.Len()) {
						t.Fatalf("clip %d frame %d vertex %d: %v, want %v", c, fr, i, v, want[i])
					}
				}
				at++
			}
		}
	})
}

// TestFuzzRigSeeds: the seeds make rigs, so the round trip runs on them.
func TestFuzzRigSeeds(t *testing.T) {
	for k, seed := range [][]byte{
		{2, 0, 0, 16, 0, 0, 0, 0, 16, 0, 5, 1, 7, 3, 2},
		{4, 0, 201, 1, 1, 250, 3, 9, 2, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 1, 3, 4, 1, 230},
		scaledSeed,
	} {
		if r := fuzzRig(seed); r == nil {
			t.Errorf("seed %d makes no rig", k)
		} else if r.HasScale() != (k == 2) {
			t.Errorf("seed %d: scale tracks %v", k, r.HasScale())
		} else {
			t.Logf("seed %d: %d joints, %d vertices, %d polygons, %d clips", k, r.Skeleton.Len(), len(r.Mesh.Verts), r.Mesh.NumPolys(), len(r.Clips))
		}
	}
}

// scaledSeed makes a rig of three joints whose clip scales some of them.
var scaledSeed = []byte{0xf2, 0xd5, 0x65, 0x2f, 0x95, 0xa7, 0xc7, 0xaf, 0x92, 0x24, 0x60, 0xd9, 0xe7, 0x93, 0xd0, 0x6c,
	0x8d, 0xeb, 0x9, 0xdb, 0xa8, 0x1d, 0xb7, 0x8e, 0xa6, 0xaf, 0xf8, 0x56, 0xe, 0x7b, 0x23, 0x5f, 0xdd, 0x5f, 0xdf, 0x4a,
	0xf1, 0x31, 0xa6, 0x48, 0xf5, 0x11, 0x9a, 0x7c, 0xa4, 0x79, 0xad, 0x5c, 0xa9, 0x3, 0x28, 0x5c, 0xe1, 0xab, 0xe4}
