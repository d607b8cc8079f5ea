package forcefield

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// TestDuplicateFaces: a closed torus stored with every face twice —
// the copy the same way round, turned over, or on copies of the
// vertices — gives the torus's own skeleton, and a note counts the faces
// removed. (Ray parity saw each doubled crossing as none: "is it
// closed?")
func TestDuplicateFaces(t *testing.T) {
	v, f := testshape.Torus(1, 0.25, 48, 12)
	plain := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return v, f })
	opt := Options{VoxelSize: 1.0 / 32, Rays: 32}
	want := skeleton(t, plain, opt)
	for name, copyFace := range map[string]func(face []int) []int{
		"same":          func(face []int) []int { return face },
		"turned over":   func(face []int) []int { return []int{face[0], face[2], face[1]} },
		"vertex copies": func(face []int) []int { return []int{face[1] + len(v), face[2] + len(v), face[0] + len(v)} },
	} {
		t.Run(name, func(t *testing.T) {
			verts := append(append([]linalg.Vec3(nil), v...), v...)
			faces := append([][]int(nil), f...)
			for _, face := range f {
				faces = append(faces, copyFace(face))
			}
			m, err := mesh.New(verts, faces)
			if err != nil {
				t.Fatal(err)
			}
			var notes []string
			opt := opt
			opt.Notes = func(n string) { notes = append(notes, n) }
			got := skeleton(t, m, opt)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d joints, %d bones; the torus alone gives %d, %d", len(got.Joints), len(got.Edges), len(want.Joints), len(want.Edges))
			}
			if !strings.Contains(strings.Join(notes, "\n"), "1152 duplicate faces removed") {
				t.Errorf("notes %q do not count the 1152 duplicate faces", notes)
			}
		})
	}
}

// TestUniqueFaces: only faces with the same corners (by position, in any
// order) go, the first of them stays, and a mesh without any comes back
// as it was.
func TestUniqueFaces(t *testing.T) {
	m := &mesh.Mesh{
		Verts: []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}},
		Tris:  [][3]int{{0, 1, 2}, {0, 2, 3}, {2, 1, 0}, {0, 4, 2}, {0, 1, 3}, {1, 2, 3}},
	}
	got, n := uniqueFaces(m)
	if want := [][3]int{{0, 1, 2}, {0, 2, 3}, {0, 1, 3}, {1, 2, 3}}; n != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v (%d dropped), want %v (2)", got, n, want)
	}
	m.Tris = m.Tris[:2]
	if got, n := uniqueFaces(m); n != 0 || &got[0] != &m.Tris[0] {
		t.Errorf("no duplicates: %d dropped, copied %v", n, got)
	}
}

// TestCancelForceField: once the context is cancelled, the force field
// stops within one batch of rays (raysPerBatch), however large the grid.
func TestCancelForceField(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) {
		return testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 1, 1})
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const rays = 1024
	var reports []int
	_, err := Skeleton(ctx, m, Options{Rays: rays, Progress: func(stage string, done, total int) {
		if stage == "force field" {
			reports = append(reports, done)
			if done > 0 {
				cancel()
			}
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	// Reports 0, then the first batch's end: the cancel is seen there.
	if len(reports) != 2 || reports[1] > raysPerBatch/rays {
		t.Errorf("force field reports %v: want it stopped after the first batch of at most %d voxels", reports, raysPerBatch/rays)
	}
}
