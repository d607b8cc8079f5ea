package skeletonshape

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/metric"
)

// biped is a stick figure symmetric about x = 0 with its joints
// perturbed: a spine on the plane (off by 1%), two arms and two legs, one
// leg with an extra bend.
func biped() *static.Skeleton {
	v := func(x, y float64) linalg.Vec3 { return linalg.Vec3{x, y, 0} }
	return &static.Skeleton{
		Joints: []linalg.Vec3{
			v(0.01, 0), v(-0.005, 0.5), v(0.01, 1), // 0 pelvis, 1 chest, 2 head
			v(0.42, 0.5), v(-0.4, 0.52), // 3, 4 hands
			v(0.2, -0.5), v(-0.21, -0.49), // 5, 6 knees
			v(0.2, -1), v(-0.19, -1.01), // 7, 8 feet
			v(-0.205, -0.75), // 9 an extra bend on the left shin
		},
		Edges: [][2]int{{0, 1}, {1, 2}, {1, 3}, {1, 4}, {0, 5}, {0, 6}, {5, 7}, {6, 9}, {9, 8}},
		Root:  2,
	}
}

func TestSymmetrize(t *testing.T) {
	s := biped()
	pl := Plane{Normal: linalg.Vec3{1, 0, 0}}
	d := 2.5
	got, st := Symmetrize(s, pl, d)
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	if st.Pairs != 3 || st.OnPlane != 3 || st.Dropped != 1 || st.Mirrored != 0 {
		t.Errorf("stats %+v, want 3 pairs, 3 on the plane, 1 dropped", st)
	}
	if len(got.Joints) != 9 || len(got.Edges) != 8 {
		t.Errorf("%d joints %d edges, want 9 and 8", len(got.Joints), len(got.Edges))
	}
	if res := MirrorResidual(got, pl, d); res > 1e-9 {
		t.Errorf("mirror residual %g%%, want 0", res)
	}
	if res := MirrorResidual(s, pl, d); res < 0.1 {
		t.Errorf("input's mirror residual %g%%: the test needs an asymmetric input", res)
	}
	// Mirrored topology: every bone's mirror image is a bone.
	has := map[[2]int]bool{}
	for _, e := range got.Edges {
		has[[2]int{min(e[0], e[1]), max(e[0], e[1])}] = true
	}
	mirror := func(j int) int {
		r := pl.Reflect(got.Joints[j])
		for k, q := range got.Joints {
			if q.Dist(r) < 1e-9 {
				return k
			}
		}
		return -1
	}
	for _, e := range got.Edges {
		a, b := mirror(e[0]), mirror(e[1])
		if a < 0 || b < 0 || !has[[2]int{min(a, b), max(a, b)}] {
			t.Errorf("bone %v has no mirror image", e)
		}
	}
	if got.Joints[got.Root].Dist(s.Joints[s.Root]) > 0.011 {
		t.Errorf("root moved to %v", got.Joints[got.Root])
	}
}

// TestSymmetrizeOneSided: a tip with no partner (a tail swung to one
// side) gets a mirror image with the mirror image of its bone.
func TestSymmetrizeOneSided(t *testing.T) {
	s := biped()
	s.Joints = append(s.Joints, linalg.Vec3{0.4, -0.1, 0})
	s.Edges = append(s.Edges, [2]int{0, 10})
	pl := Plane{Normal: linalg.Vec3{1, 0, 0}}
	got, st := Symmetrize(s, pl, 2.5)
	if st.Mirrored != 1 || len(got.Joints) != 11 || len(got.Edges) != 10 {
		t.Errorf("stats %+v, %d joints, %d bones: want the tail mirrored", st, len(got.Joints), len(got.Edges))
	}
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	if res := MirrorResidual(got, pl, 2.5); res > 1e-9 {
		t.Errorf("mirror residual %g%%", res)
	}
}

// TestTorsoRoot: a chain foot–pelvis–chest–neck–head with legs; the head
// is the thickest joint (a big-headed cartoon) yet the root lands on the
// torso, where the volume is balanced.
func TestTorsoRoot(t *testing.T) {
	s := &static.Skeleton{
		Joints: []linalg.Vec3{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 3, 0}, {0, 3.5, 0}, {-0.3, -1, 0}, {0.3, -1, 0}, {-0.3, -2, 0}, {0.3, -2, 0}},
		Edges:  [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 5}, {0, 6}, {5, 7}, {6, 8}},
		Root:   4,
	}
	radius := []float64{0.5, 0.5, 0.45, 0.15, 0.9, 0.2, 0.2, 0.15, 0.15}
	got := TorsoRoot(s, radius, nil)
	if got != 1 && got != 0 {
		t.Errorf("root %d (%v), want the pelvis or the belly", got, s.Joints[got])
	}
	largest := 0
	for j, r := range radius {
		if r > radius[largest] {
			largest = j
		}
	}
	if got == largest {
		t.Errorf("root is the largest blob")
	}
}

// TestSplitStars: a hip with five spokes (two legs, tail, spine, belly)
// becomes a chain whose joints have at most three children.
func TestSplitStars(t *testing.T) {
	s := &static.Skeleton{
		Joints: []linalg.Vec3{{0, 0, 0}, {1, 0.1, 0}, {-1, 0, 0}, {0.1, -1, 0.3}, {0.1, -1, -0.3}, {0.6, -0.4, 0}},
		Edges:  [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}},
		Root:   0,
	}
	added := SplitStars(s, linalg.Vec3{1, 0, 0}, nil, 2)
	if added < 1 {
		t.Fatalf("nothing split")
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	parent, order := s.Tree()
	kids := make([]int, len(s.Joints))
	for _, j := range order[1:] {
		kids[parent[j]]++
	}
	for j, k := range kids {
		if k > maxChildren {
			t.Errorf("joint %d has %d children", j, k)
		}
	}
	if len(s.Joints) != 6+added || len(s.Edges) != len(s.Joints)-1 {
		t.Errorf("%d joints, %d edges after adding %d", len(s.Joints), len(s.Edges), added)
	}
	for _, p := range s.Joints[6:] {
		if math.Abs(p[1]) > 1e-12 || math.Abs(p[2]) > 1e-12 {
			t.Errorf("new joint %v is off the body's axis", p)
		}
	}
}

// TestShapeNoPlane: the generated hand has no mirror plane; Shape says so
// and leaves its true skeleton's joints where they are (the wrist, with
// five fingers leaving it, gains the two joints that split it).
func TestShapeNoPlane(t *testing.T) {
	r, err := character.Generate(character.Hand, character.Options{Vertices: 3000, Frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := &static.Skeleton{Joints: metric.Heads(&r.Skeleton)}
	for j, jt := range r.Skeleton.Joints {
		if jt.Parent >= 0 {
			s.Edges = append(s.Edges, [2]int{int(jt.Parent), j})
		}
	}
	var notes []string
	got, err := Shape(context.Background(), r.Mesh, s, Options{Notes: func(n string) { notes = append(notes, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) == 0 || !strings.Contains(notes[0], "no mirror plane") {
		t.Errorf("notes %q, want no mirror plane first", notes)
	}
	for j, p := range s.Joints {
		if got.Joints[j] != p {
			t.Errorf("joint %d moved from %v to %v", j, p, got.Joints[j])
		}
	}
	if len(got.Joints) > len(s.Joints)+2 {
		t.Errorf("%d joints from %d", len(got.Joints), len(s.Joints))
	}
}

// TestShapeGenerated: the force field's stand-in here is the true
// skeleton of each symmetric generated character moved off its symmetry
// by a few percent; Shape makes it symmetric again (every joint's mirror
// image on a joint within 0.5% of the diagonal), roots it on the plane,
// keeps every joint to three children or fewer, and --joints N gives N.
func TestShapeGenerated(t *testing.T) {
	for _, k := range []character.Kind{character.Biped, character.Quadruped} {
		for _, nv := range []int{2000, 6000} {
			r, err := character.Generate(k, character.Options{Vertices: nv, Frames: 1})
			if err != nil {
				t.Fatal(err)
			}
			d := mesh.Diagonal(r.Mesh.Verts)
			s := &static.Skeleton{Joints: metric.Heads(&r.Skeleton)}
			for j, jt := range r.Skeleton.Joints {
				s.Joints[j] = s.Joints[j].Add(linalg.Vec3{0.01 * d * math.Sin(float64(3*j)), 0.01 * d * math.Cos(float64(5*j)), 0})
				if jt.Parent >= 0 {
					s.Edges = append(s.Edges, [2]int{int(jt.Parent), j})
				}
			}
			s.Root = len(s.Joints) - 1
			got, err := Shape(context.Background(), r.Mesh, s, Options{Detail: true})
			if err != nil {
				t.Fatal(err)
			}
			pl, _ := MirrorPlane(r.Mesh)
			if res := MirrorResidual(got, pl, d); res > 0.5 {
				t.Errorf("%s %d: mirror residual %.3f%% of d", k, nv, res)
			}
			if side := math.Abs(pl.Side(got.Joints[got.Root])); side > 1e-9*d {
				t.Errorf("%s %d: root off the plane by %g", k, nv, side)
			}
			parent, order := got.Tree()
			kids := make([]int, len(got.Joints))
			for _, j := range order[1:] {
				kids[parent[j]]++
			}
			for j, c := range kids {
				if c > maxChildren {
					t.Errorf("%s %d: joint %d has %d children", k, nv, j, c)
				}
			}
			if je := metric.JointError(got.Joints, metric.Heads(&r.Skeleton), d); je > 2 {
				t.Errorf("%s %d: joint error %.2f%% against the truth", k, nv, je)
			}
			for _, n := range []int{12, 30} {
				g, err := Shape(context.Background(), r.Mesh, s, Options{Joints: n})
				if err != nil {
					t.Fatal(err)
				}
				if len(g.Joints) != n {
					t.Errorf("%s %d: %d joints, asked for %d", k, nv, len(g.Joints), n)
				}
			}
		}
	}
}
