package forcefield

import (
	"context"
	"encoding/binary"
	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// meshFromBytes decodes a small mesh: a vertex count byte, then per
// vertex three signed bytes (coordinates), then triples of vertex index
// bytes (taken modulo the count) as triangles.
func meshFromBytes(data []byte) (*mesh.Mesh, error) {
	if len(data) == 0 {
		return mesh.New(nil, nil)
	}
	nv := int(data[0])
	data = data[1:]
	var verts []linalg.Vec3
	for i := 0; i < nv && len(data) >= 3; i++ {
		verts = append(verts, linalg.Vec3{float64(int8(data[0])), float64(int8(data[1])), float64(int8(data[2]))})
		data = data[3:]
	}
	var faces [][]int
	for len(verts) > 0 && len(data) >= 3 {
		faces = append(faces, []int{int(data[0]) % len(verts), int(data[1]) % len(verts), int(data[2]) % len(verts)})
		data = data[3:]
	}
	return mesh.New(verts, faces)
}

// meshBytes encodes m for meshFromBytes (coordinates must fit a byte).
func meshBytes(verts []linalg.Vec3, faces [][]int) []byte {
	out := []byte{byte(len(verts))}
	for _, p := range verts {
		for _, x := range p {
			out = append(out, byte(int8(math.Round(x))))
		}
	}
	for _, f := range faces {
		for k := 1; k+1 < len(f); k++ {
			out = append(out, byte(f[0]), byte(f[k]), byte(f[k+1]))
		}
	}
	return out
}

// FuzzSkeleton: whatever the triangles (open, self-intersecting, flat,
// inside out, repeated), Skeleton returns an error or a valid skeleton
// inside the mesh's bounding box, and never panics.
func FuzzSkeleton(f *testing.F) {
	cube, cubeFaces := testshape.Box(linalg.Vec3{-20, -20, -20}, linalg.Vec3{20, 20, 20})
	f.Add(meshBytes(cube, cubeFaces))
	f.Add(meshBytes(cube, cubeFaces[:9]))
	tv, tf := tube(linalg.Vec3{-100, 0, 0}, linalg.Vec3{100, 0, 0}, 30, 8, 4)
	f.Add(meshBytes(tv, tf))
	f.Add([]byte{4, 0, 0, 0, 50, 0, 0, 0, 50, 0, 0, 0, 50, 0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2})
	f.Add([]byte{3, 0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 1, 2})
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], 0x0102030405060708)
	f.Add(seed[:])
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := meshFromBytes(data)
		if err != nil {
			return
		}
		s, err := Skeleton(context.Background(), m, Options{VoxelSize: 1.0 / 8, Rays: 16})
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("invalid skeleton: %v", err)
		}
		lo, hi := mesh.Bounds(m.Verts)
		slack := 1e-9 * (1 + hi.Sub(lo).Norm())
		for j, p := range s.Joints {
			for a := 0; a < 3; a++ {
				if p[a] < lo[a]-slack || p[a] > hi[a]+slack {
					t.Fatalf("joint %d at %v is outside the bounding box %v–%v", j, p, lo, hi)
				}
			}
		}
	})
}
