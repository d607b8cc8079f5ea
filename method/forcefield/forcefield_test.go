package forcefield

import (
	"context"
	"errors"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

func skeleton(t *testing.T, m *mesh.Mesh, opt Options) *static.Skeleton {
	t.Helper()
	s, err := Skeleton(context.Background(), m, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func degrees(s *static.Skeleton) []int {
	deg := make([]int, len(s.Joints))
	for _, e := range s.Edges {
		deg[e[0]]++
		deg[e[1]]++
	}
	return deg
}

// TestCapsule: a closed tube gives a chain along its axis whose end
// joints lie a voxel or two inside its caps (extendTips).
func TestCapsule(t *testing.T) {
	const r, length = 0.4, 4.0
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) {
		return tube(linalg.Vec3{0, 0, 0}, linalg.Vec3{length, 0, 0}, r, 24, 20)
	})
	s := skeleton(t, m, Options{})
	if len(s.Joints) < 3 {
		t.Fatalf("%d joints, want a chain of at least 3", len(s.Joints))
	}
	if len(s.Edges) != len(s.Joints)-1 {
		t.Fatalf("%d bones for %d joints: not a tree", len(s.Edges), len(s.Joints))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for j, p := range s.Joints {
		if off := math.Hypot(p[1], p[2]); off > 0.1*r {
			t.Errorf("joint %d at %.3f is %.3f off the axis", j, p, off)
		}
		lo, hi = math.Min(lo, p[0]), math.Max(hi, p[0])
	}
	for j, d := range degrees(s) {
		if d > 2 {
			t.Errorf("joint %d has %d bones: not a chain", j, d)
		}
	}
	if h := length / 64; lo < 0 || lo > 2*h || hi > length || hi < length-2*h {
		t.Errorf("chain spans x %.3f..%.3f, want within two voxels (%.3f) inside both caps", lo, hi, 2*h)
	}
	root := s.Joints[s.Root][0]
	if math.Abs(root-length/2) > length/4 {
		t.Errorf("root at x = %.2f, want near the middle", root)
	}
}

// TestTorusKeepsLoop: the skeleton of a torus is a loop around its core
// circle (the paper's O, not a C).
func TestTorusKeepsLoop(t *testing.T) {
	const R, r = 1.0, 0.25
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Torus(R, r, 64, 16) })
	s := skeleton(t, m, Options{})
	if len(s.Edges) < len(s.Joints) {
		t.Fatalf("%d bones for %d joints: no cycle", len(s.Edges), len(s.Joints))
	}
	quadrants := map[[2]bool]bool{}
	for j, p := range s.Joints {
		if d := math.Abs(math.Hypot(p[0], p[1]) - R); d > 0.3*r || math.Abs(p[2]) > 0.3*r {
			t.Errorf("joint %d at %.3f is off the core circle", j, p)
		}
		quadrants[[2]bool{p[0] > 0, p[1] > 0}] = true
	}
	if len(quadrants) != 4 {
		t.Errorf("joints in %d quadrants, want all 4", len(quadrants))
	}
	for j, d := range degrees(s) {
		if d != 2 {
			t.Errorf("joint %d has %d bones, want 2 on a ring", j, d)
		}
	}
	// The exported hierarchy is a spanning tree: one edge of the ring cut.
	parent, order := s.Tree()
	if len(order) != len(s.Joints) || parent[s.Root] != -1 {
		t.Fatalf("tree %v", parent)
	}
}

// TestTwoBoxes: separate parts give one connected skeleton with joints
// in both.
func TestTwoBoxes(t *testing.T) {
	m := testshape.Join(t,
		func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 0.4, 0.4}) },
		func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{2, 0, 0}, linalg.Vec3{3, 0.4, 0.4}) },
	)
	var notes []string
	s := skeleton(t, m, Options{Notes: func(n string) { notes = append(notes, n) }})
	var left, right int
	for _, p := range s.Joints {
		switch {
		case p[0] > 0 && p[0] < 1:
			left++
		case p[0] > 2 && p[0] < 3:
			right++
		default:
			t.Errorf("joint at %.3f is in neither box", p)
		}
	}
	if left == 0 || right == 0 {
		t.Fatalf("%d joints in the left box, %d in the right", left, right)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "2 separate pieces") {
		t.Errorf("notes %q do not mention the joined pieces", notes)
	}
}

// tShape is a bar along x with a stem down from its middle: two tubes
// whose shells overlap (their union is the solid).
func tShape(t testing.TB) *mesh.Mesh {
	return testshape.Join(t,
		func() ([]linalg.Vec3, [][]int) { return tube(linalg.Vec3{-2, 0, 0}, linalg.Vec3{2, 0, 0}, 0.3, 20, 24) },
		func() ([]linalg.Vec3, [][]int) {
			return tube(linalg.Vec3{0, 0, 0}, linalg.Vec3{0, -2.5, 0}, 0.3, 20, 24)
		},
	)
}

// TestBranch: a T gives a joint with three bones near the crossing and
// arms reaching to the three ends.
func TestBranch(t *testing.T) {
	s := skeleton(t, tShape(t), Options{})
	deg := degrees(s)
	branch := -1
	for j, d := range deg {
		if d >= 3 && s.Joints[j].Norm() < 0.6 {
			branch = j
		}
	}
	if branch < 0 {
		t.Fatalf("no joint with three bones near the crossing: %v, bones %v", s.Joints, s.Edges)
	}
	for _, end := range []linalg.Vec3{{-2, 0, 0}, {2, 0, 0}, {0, -2.5, 0}} {
		best := math.Inf(1)
		for _, p := range s.Joints {
			best = math.Min(best, p.Dist(end))
		}
		if best > 0.7 {
			t.Errorf("nearest joint to the end %v is %.2f away", end, best)
		}
	}
	if len(s.Edges) != len(s.Joints)-1 {
		t.Errorf("%d bones for %d joints: the T has a loop", len(s.Edges), len(s.Joints))
	}
}

// TestDeterministic: the same skeleton on one core and on all.
func TestDeterministic(t *testing.T) {
	m := tShape(t)
	old := runtime.GOMAXPROCS(1)
	a := skeleton(t, m, Options{})
	runtime.GOMAXPROCS(max(2, old))
	b := skeleton(t, m, Options{})
	runtime.GOMAXPROCS(old)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("GOMAXPROCS 1 and 2 differ:\n%+v\n%+v", a, b)
	}
}

// TestScaleInvariant: scaling the model by a power of two (exact in
// floating point) scales the skeleton and changes nothing else: the
// method works in the unit cube.
func TestScaleInvariant(t *testing.T) {
	m := tShape(t)
	a := skeleton(t, m, Options{})
	big := make([]linalg.Vec3, len(m.Verts))
	for i, p := range m.Verts {
		big[i] = p.Scale(8)
	}
	b := skeleton(t, m.WithVerts(big), Options{})
	if len(a.Joints) != len(b.Joints) || !reflect.DeepEqual(a.Edges, b.Edges) || a.Root != b.Root {
		t.Fatalf("graphs differ: %d vs %d joints", len(a.Joints), len(b.Joints))
	}
	for j := range a.Joints {
		if d := a.Joints[j].Scale(8).Dist(b.Joints[j]); d > 1e-12 {
			t.Errorf("joint %d: %v ×8 vs %v", j, a.Joints[j], b.Joints[j])
		}
	}
}

// TestBadInput: bad meshes and options get an error, never a panic; an
// open mesh gets a best-effort skeleton and a note.
func TestBadInput(t *testing.T) {
	tri, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, [][]int{{0, 1, 2}})
	point, _ := mesh.New([]linalg.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, [][]int{{0, 1, 2}})
	nan := tShape(t).Clone()
	nan.Verts[3][1] = math.NaN()
	for name, m := range map[string]*mesh.Mesh{
		"nil":            nil,
		"no vertices":    {},
		"no faces":       {Verts: []linalg.Vec3{{0, 0, 0}, {1, 1, 1}}},
		"bad index":      {Verts: []linalg.Vec3{{0, 0, 0}, {1, 1, 1}}, Tris: [][3]int{{0, 1, 5}}},
		"non-finite":     nan,
		"flat":           tri,
		"a single point": point,
	} {
		if _, err := Skeleton(context.Background(), m, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	m := tShape(t)
	for name, opt := range map[string]Options{
		"voxel too big":   {VoxelSize: 0.2},
		"voxel too small": {VoxelSize: 1e-4},
		"voxel NaN":       {VoxelSize: math.NaN()},
		"too few rays":    {Rays: 3},
		"negative merge":  {Merge: -1},
	} {
		if _, err := Skeleton(context.Background(), m, opt); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Skeleton(ctx, m, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	// A tube without one cap: rays leave through the hole, parity leaks
	// along one axis, and the vote still finds the tube.
	v, f := tube(linalg.Vec3{0, 0, 0}, linalg.Vec3{3, 0, 0}, 0.4, 20, 15)
	var kept [][]int
	for _, face := range f {
		if face[0] != len(v)-1 { // the far cap's fan centre
			kept = append(kept, face)
		}
	}
	open, err := mesh.New(v, kept)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	s := skeleton(t, open, Options{Notes: func(n string) { notes = append(notes, n) }})
	if !strings.Contains(strings.Join(notes, "\n"), "open edges") {
		t.Errorf("notes %q do not mention the open edges", notes)
	}
	for j, p := range s.Joints {
		if math.Hypot(p[1], p[2]) > 0.4 || p[0] < 0 || p[0] > 3 {
			t.Errorf("open tube: joint %d at %.3f is outside the tube", j, p)
		}
	}
}
