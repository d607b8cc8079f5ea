package aguiar

import (
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
)

// TestMerge cuts the known three-bone tube (joints at x = 1 and 2, skin
// blending over 0.3 around each) into slices along x and checks that
// merging leaves the three bones: slices inside one bone join, and the
// blend bands go to the bones on either side, split in their middle.
func TestMerge(t *testing.T) {
	tube := testrig.Tube(t, 24, linalg.Vec3{})
	s := testrig.Play(t, tube)
	for _, tc := range []struct {
		name string
		cuts []float64 // slice boundaries along x
	}{
		{"bones", []float64{1, 2}},
		{"halves", []float64{0.5, 1, 1.5, 2, 2.5}},
		{"blend bands", []float64{0.85, 1.15, 1.85, 2.15}},
		{"both", []float64{0.4, 0.85, 1.15, 1.5, 1.85, 2.15, 2.6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := newProblem(s)
			if err != nil {
				t.Fatal(err)
			}
			m := p.m
			vertex := make([]int32, m.N)
			for i := range vertex {
				x := s.Rest.Verts[i][0] // the welded tube keeps its vertex order
				for _, c := range tc.cuts {
					if x >= c {
						vertex[i]++
					}
				}
			}
			tri := make([]int32, len(p.w.Tris))
			for f, tr := range p.w.Tris {
				tri[f] = majority(vertex[tr[0]], vertex[tr[1]], vertex[tr[2]])
			}
			k := merge(m, p.w.Tris, vertex, tri, len(tc.cuts)+1, 0.1, 0)
			if k != 3 {
				t.Fatalf("%d patches after merging, want 3", k)
			}
			// Away from the joints every vertex is in its bone's patch.
			want := map[int]int32{}
			for i, c := range vertex {
				x := s.Rest.Verts[i][0]
				bone := 0
				switch {
				case x > 1.1 && x < 1.9:
					bone = 1
				case x > 2.1:
					bone = 2
				case x >= 0.9:
					continue // near a joint: either side
				}
				if got, ok := want[bone]; ok && got != c {
					t.Fatalf("vertex at x = %.2f is in patch %d, bone %d's is %d", x, c, bone, got)
				}
				want[bone] = c
			}
			if len(want) != 3 {
				t.Errorf("bones' patches: %v", want)
			}
		})
	}
}

// TestMergeLoneVertices gives two single vertices patches of their own
// (and their triangle fans) on the three-bone tube: with a tolerance nothing else meets, merging
// still folds them (fewer than three vertices have no rigid motion to
// place a joint by) and keeps the three bones.
func TestMergeLoneVertices(t *testing.T) {
	tube := testrig.Tube(t, 24, linalg.Vec3{})
	s := testrig.Play(t, tube)
	p, err := newProblem(s)
	if err != nil {
		t.Fatal(err)
	}
	m := p.m
	vertex := make([]int32, m.N)
	lone := []int{-1, -1} // one near the first joint, one inside the last bone
	for i := range vertex {
		x := s.Rest.Verts[i][0]
		if x >= 1 {
			vertex[i]++
		}
		if x >= 2 {
			vertex[i]++
		}
		if lone[0] < 0 && x > 0.95 && x < 1.05 {
			lone[0] = i
		}
		if lone[1] < 0 && x > 2.4 && x < 2.6 {
			lone[1] = i
		}
	}
	if lone[0] < 0 || lone[1] < 0 {
		t.Fatalf("no vertex to single out: %v", lone)
	}
	for j, i := range lone {
		vertex[i] = int32(3 + j)
	}
	// Their fans are theirs too, as nearest-seed triangles can make them.
	tri := make([]int32, len(p.w.Tris))
	for f, tr := range p.w.Tris {
		tri[f] = majority(vertex[tr[0]], vertex[tr[1]], vertex[tr[2]])
		for j, i := range lone {
			if tr[0] == i || tr[1] == i || tr[2] == i {
				tri[f] = int32(3 + j)
			}
		}
	}
	if k := merge(m, p.w.Tris, vertex, tri, 5, 1e-9, 0); k != 3 {
		t.Fatalf("%d patches after merging, want 3", k)
	}
}
