package contraction

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

// run extracts the skeleton of m and checks what every skeleton must
// satisfy: the joint count asked for, a valid connected graph, and
// joints inside the mesh's bounding box. It returns the notes too.
func run(t *testing.T, m *mesh.Mesh, opt Options) (*static.Skeleton, []string) {
	t.Helper()
	var notes []string
	opt.Notes = func(s string) { notes = append(notes, s) }
	s, err := Skeleton(context.Background(), m, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := opt.Joints
	if want == 0 {
		want = 24
	}
	if len(s.Joints) < want {
		t.Errorf("%d joints, asked for %d", len(s.Joints), want)
	}
	lo, hi := mesh.Bounds(m.Verts)
	for j, p := range s.Joints {
		for k := 0; k < 3; k++ {
			if p[k] < lo[k]-1e-9 || p[k] > hi[k]+1e-9 {
				t.Errorf("joint %d at %v is outside the bounding box %v–%v", j, p, lo, hi)
			}
		}
	}
	return s, notes
}

// degrees returns each joint's number of bones.
func degrees(s *static.Skeleton) []int {
	d := make([]int, len(s.Joints))
	for _, e := range s.Edges {
		d[e[0]]++
		d[e[1]]++
	}
	return d
}

// TestCapsule: a capsule along x contracts to a chain on its axis that
// spans its length.
func TestCapsule(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(2, 0.5, 24, 40, 8) })
	for _, joints := range []int{2, 8, 24} {
		s, _ := run(t, m, Options{Joints: joints})
		if len(s.Joints) != joints || len(s.Edges) != joints-1 {
			t.Fatalf("%d joints, %d bones; want a chain of %d", len(s.Joints), len(s.Edges), joints)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for j, p := range s.Joints {
			if off := math.Hypot(p[1], p[2]); off > 0.1 {
				t.Errorf("%d joints: joint %d at %v is %.3f off the axis", joints, j, p, off)
			}
			lo, hi = math.Min(lo, p[0]), math.Max(hi, p[0])
		}
		// The end joints are the centres of the end regions, inside the
		// caps; the chain covers most of the 5-unit length.
		if joints > 2 && (lo > -1.4 || hi < 1.4) {
			t.Errorf("%d joints span x %.2f to %.2f; want most of −2.5 to 2.5", joints, lo, hi)
		}
		for j, d := range degrees(s) {
			if d > 2 {
				t.Errorf("%d joints: joint %d has %d bones in a chain", joints, j, d)
			}
		}
	}
}

// TestT: a T of boxes gives one branching joint near the junction and
// ends in the three arms.
func TestT(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return polycube(tShape(3, 4), 4) })
	s, _ := run(t, m, Options{Joints: 10})
	if len(s.Edges) != len(s.Joints)-1 {
		t.Fatalf("%d bones for %d joints: the T has no loop", len(s.Edges), len(s.Joints))
	}
	var leaves []linalg.Vec3
	forks := 0
	for j, d := range degrees(s) {
		switch {
		case d == 1:
			leaves = append(leaves, s.Joints[j])
		case d == 3:
			forks++
			// The bar spans x −3…4, y 0…1; the stem hangs below x 0…1.
			if p := s.Joints[j]; math.Abs(p[0]-0.5) > 1 || p[1] < -1 || p[1] > 1.5 {
				t.Errorf("fork at %v, want it near the junction (0.5, 0.5)", p)
			}
		case d > 3:
			t.Errorf("joint %d has %d bones", j, d)
		}
	}
	if forks != 1 || len(leaves) != 3 {
		t.Fatalf("%d forks and %d ends, want 1 and 3", forks, len(leaves))
	}
	// One end per arm: left (x < −1.5), right (x > 2.5), bottom (y < −2.5).
	var left, right, bottom bool
	for _, p := range leaves {
		left = left || p[0] < -1.5
		right = right || p[0] > 2.5
		bottom = bottom || p[1] < -2.5
	}
	if !left || !right || !bottom {
		t.Errorf("ends %v: want one in each arm of the T", leaves)
	}
}

// TestTorus: a torus keeps its loop, on its core circle.
func TestTorus(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Torus(2, 0.5, 48, 12) })
	for _, joints := range []int{3, 12} {
		s, _ := run(t, m, Options{Joints: joints})
		if len(s.Edges) != len(s.Joints) {
			t.Fatalf("%d joints, %d bones: want one loop", len(s.Joints), len(s.Edges))
		}
		for j, d := range degrees(s) {
			if d != 2 {
				t.Errorf("joint %d has %d bones; a loop has 2 everywhere", j, d)
			}
		}
		for j, p := range s.Joints {
			// A region's centre lies inside the ring of its arc: at most
			// the core radius, at least the arc's chord inside it.
			r := math.Hypot(p[0], p[1])
			if r > 2.05 || r < 2*math.Cos(math.Pi/float64(joints))-0.3 || math.Abs(p[2]) > 0.1 {
				t.Errorf("%d joints: joint %d at %v (radius %.2f) is off the core circle", joints, j, p, r)
			}
		}
	}
}

// TestPieces: separate pieces, a capsule cut into seam copies and an open
// capsule all give one connected skeleton, and the notes say what was
// repaired.
func TestPieces(t *testing.T) {
	two := testshape.Join(t,
		func() ([]linalg.Vec3, [][]int) { return capsule(1, 0.3, 16, 12, 4) },
		func() ([]linalg.Vec3, [][]int) {
			v, f := capsule(1, 0.3, 16, 12, 4)
			return shift(linalg.Vec3{3.5, 0, 0}, v, f)
		})
	s, notes := run(t, two, Options{Joints: 8})
	wantNote(t, notes, "2 separate pieces joined")
	var left, right int
	for _, p := range s.Joints {
		if p[0] < 1.75 {
			left++
		} else {
			right++
		}
	}
	if left == 0 || right == 0 {
		t.Errorf("%d joints in the left capsule, %d in the right", left, right)
	}

	// Two capsules end to end, touching at their poles: welded, the poles
	// are one vertex where two sheets pinch; split again, the pieces are
	// joined as separate ones, and the skeleton is a chain.
	pinch := testshape.Join(t,
		func() ([]linalg.Vec3, [][]int) { return capsule(1, 0.3, 16, 12, 4) },
		func() ([]linalg.Vec3, [][]int) {
			v, f := capsule(1, 0.3, 16, 12, 4)
			return shift(linalg.Vec3{2.6, 0, 0}, v, f)
		})
	s, notes = run(t, pinch, Options{Joints: 8})
	wantNote(t, notes, "1 pinched vertices split")
	if len(s.Edges) != len(s.Joints)-1 {
		t.Errorf("touching capsules: %d joints, %d bones; want a tree", len(s.Joints), len(s.Edges))
	}

	// The same capsule with every vertex of the ring at x = 0 doubled,
	// the faces on one side using the copies: a seam.
	v, f := capsule(2, 0.5, 24, 40, 8)
	whole, err := mesh.New(v, f)
	if err != nil {
		t.Fatal(err)
	}
	copyOf := map[int]int{}
	for i, p := range v {
		if math.Abs(p[0]) < 1e-9 {
			copyOf[i] = len(v)
			v = append(v, p)
		}
	}
	for _, face := range f {
		right := true
		for _, i := range face {
			right = right && v[i][0] >= -1e-9
		}
		if right {
			for k, i := range face {
				if c, ok := copyOf[i]; ok {
					face[k] = c
				}
			}
		}
	}
	seamed, err := mesh.New(v, f)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := run(t, whole, Options{Joints: 8})
	b, notes := run(t, seamed, Options{Joints: 8})
	wantNote(t, notes, "welded")
	if d := maxJointDistance(a, b); d > 1e-9 {
		t.Errorf("the seamed capsule's joints are %.3g from the whole one's", d)
	}

	// An open capsule: its right cap removed.
	v, f = capsule(2, 0.5, 24, 40, 8)
	var open [][]int
	for _, face := range f {
		keep := false
		for _, i := range face {
			keep = keep || v[i][0] < 2
		}
		if keep {
			open = append(open, face)
		}
	}
	om, err := mesh.New(v, open)
	if err != nil {
		t.Fatal(err)
	}
	s, notes = run(t, om, Options{Joints: 8})
	wantNote(t, notes, "1 holes closed")
	lo := math.Inf(1)
	for _, p := range s.Joints {
		// Inside the tube; the open end, contracted from its cap, may
		// fork a little.
		if math.Hypot(p[1], p[2]) > 0.3 {
			t.Errorf("open capsule: joint %v far off the axis", p)
		}
		lo = math.Min(lo, p[0])
	}
	if lo > -1.6 {
		t.Errorf("open capsule: joints end at x = %.2f, want the closed end near −2", lo)
	}
}

// TestSpuriousEdges: two capsules side by side bridged by two long
// triangles keep no loop through the bridge: the bridge is split off.
func TestSpuriousEdges(t *testing.T) {
	v, f := capsule(2, 0.5, 24, 40, 8)
	n := len(v)
	v2, f2 := capsule(2, 0.5, 24, 40, 8)
	for _, p := range v2 {
		v = append(v, p.Add(linalg.Vec3{0, 3, 0}))
	}
	for _, face := range f2 {
		f = append(f, []int{face[0] + n, face[1] + n, face[2] + n})
	}
	// Bridges between the top of one capsule and the bottom of the
	// other, near each end: each a strip of two triangles on an edge of
	// either capsule (so no vertex is a mere pinch), two loops if kept.
	nearest := func(lo, hi int, q linalg.Vec3) int {
		best := lo
		for i := lo; i < hi; i++ {
			if v[i].Dist(q) < v[best].Dist(q) {
				best = i
			}
		}
		return best
	}
	top := mesh.NewTopology(testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return v, f }))
	for _, x := range []float64{-1.5, 1.5} {
		a := nearest(0, n, linalg.Vec3{x, 0.5, 0})
		c := nearest(n, len(v), linalg.Vec3{x, 2.5, 0})
		// b: a's neighbour along the capsule; d: c's.
		b, d := -1, -1
		for _, w := range top.Neighbors(a) {
			if v[w][1] > 0.45 && v[w][0] > v[a][0] {
				b = w
			}
		}
		for _, w := range top.Neighbors(c) {
			if v[w][1] < 2.55 && v[w][0] > v[c][0] {
				d = w
			}
		}
		if b < 0 || d < 0 {
			t.Fatal("no edge for the bridge")
		}
		f = append(f, []int{a, b, c}, []int{b, d, c})
	}
	m, err := mesh.New(v, f)
	if err != nil {
		t.Fatal(err)
	}
	s, notes := run(t, m, Options{Joints: 10})
	wantNote(t, notes, "spurious edges split off")
	if len(s.Edges) != len(s.Joints)-1 {
		t.Errorf("%d bones for %d joints: the bridge made a loop", len(s.Edges), len(s.Joints))
	}
	// Kept, the bridges tie the capsules together twice over.
	kept, notes, err := skeletonNotes(m, Options{Joints: 10, Split: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept.Edges) < len(kept.Joints) {
		t.Errorf("bridges kept: %d joints, %d bones; want the loop through them (%q)", len(kept.Joints), len(kept.Edges), notes)
	}
}

// TestJointCounts: from 1 joint to more than a coarse mesh collapses to,
// the count asked for comes back; the note says when bones were split.
func TestJointCounts(t *testing.T) {
	coarse := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(2, 0.5, 8, 4, 2) })
	for _, joints := range []int{1, 5, 50} {
		s, notes := run(t, coarse, Options{Joints: joints, MinVertices: -1})
		if len(s.Joints) != joints {
			t.Errorf("%d joints, asked for %d", len(s.Joints), joints)
		}
		if joints == 50 {
			wantNote(t, notes, "middle of the longest bones")
		}
	}
}

// TestInvariance: moving and scaling the mesh moves and scales the
// skeleton the same way (the method works in unit-sphere coordinates).
// The scale is a power of two and the shift a whole number, so the
// unit-sphere coordinates are the same bit for bit and so is every
// decision after them.
func TestInvariance(t *testing.T) {
	v, f := polycube(tShape(3, 4), 4)
	a, err := mesh.New(v, f)
	if err != nil {
		t.Fatal(err)
	}
	moved := make([]linalg.Vec3, len(v))
	for i, p := range v {
		moved[i] = p.Scale(32).Add(linalg.Vec3{64, -32, 16})
	}
	b, err := mesh.New(moved, f)
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := run(t, a, Options{Joints: 10})
	sb, _ := run(t, b, Options{Joints: 10})
	for j := range sa.Joints {
		want := sa.Joints[j].Scale(32).Add(linalg.Vec3{64, -32, 16})
		if d := want.Dist(sb.Joints[j]); d > 1e-9*32 {
			t.Errorf("joint %d at %v, want %v", j, sb.Joints[j], want)
		}
	}
}

// TestDeterministic: the same input gives the same skeleton bit for bit.
func TestDeterministic(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return polycube(tShape(3, 4), 4) })
	a, _ := run(t, m, Options{Joints: 12})
	for range 3 {
		b, _ := run(t, m, Options{Joints: 12})
		if maxJointDistance(a, b) != 0 || a.Root != b.Root || len(a.Edges) != len(b.Edges) {
			t.Fatal("two runs differ")
		}
		for k := range a.Edges {
			if a.Edges[k] != b.Edges[k] {
				t.Fatal("two runs differ in their bones")
			}
		}
	}
}

// TestBadInput: bad meshes and options fail with an error naming the
// problem, never a panic.
func TestBadInput(t *testing.T) {
	good := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(1, 0.3, 8, 4, 2) })
	flat, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, [][]int{{0, 1, 2}})
	nan := good.Clone()
	nan.Verts[3][1] = math.NaN()
	badIndex := good.Clone()
	badIndex.Tris[0][1] = 1 << 20
	for _, c := range []struct {
		name string
		m    *mesh.Mesh
		opt  Options
		want string
	}{
		{"nil", nil, Options{}, "no vertices"},
		{"no faces", &mesh.Mesh{Verts: good.Verts}, Options{}, "no faces"},
		{"no area", flat, Options{}, "no area"},
		{"NaN", nan, Options{}, "vertex 4"},
		{"index", badIndex, Options{}, "out of range"},
		{"joints", good, Options{Joints: -2}, "joints"},
		{"scale", good, Options{ContractionScale: 0.5}, "contraction scale"},
		{"weight", good, Options{ContractionWeight: -1}, "contraction weight"},
		{"attraction", good, Options{AttractionWeight: math.NaN()}, "attraction weight"},
		{"stop", good, Options{Stop: 2}, "stop ratio"},
		{"iterations", good, Options{MaxIterations: 1000}, "iterations"},
		{"merge", good, Options{Merge: -1}, "merge length"},
		{"split", good, Options{Split: 1.5}, "split factor"},
		{"costs", good, Options{ShapeWeight: -1}, "cost weights"},
		{"vertices", good, Options{MaxVertices: 10}, "MaxVertices"},
		{"too many joints", good, Options{Joints: 1000000}, "at most 6000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Skeleton(context.Background(), c.m, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming %q", err, c.want)
			}
		})
	}
}

// TestCancel: a cancelled context stops the work with its error.
func TestCancel(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(2, 0.5, 24, 40, 8) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Skeleton(ctx, m, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func skeletonNotes(m *mesh.Mesh, opt Options) (*static.Skeleton, []string, error) {
	var notes []string
	opt.Notes = func(s string) { notes = append(notes, s) }
	s, err := Skeleton(context.Background(), m, opt)
	return s, notes, err
}

func wantNote(t *testing.T, notes []string, part string) {
	t.Helper()
	for _, n := range notes {
		if strings.Contains(n, part) {
			return
		}
	}
	t.Errorf("no note says %q: %q", part, notes)
}

func maxJointDistance(a, b *static.Skeleton) float64 {
	if len(a.Joints) != len(b.Joints) {
		return math.Inf(1)
	}
	var d float64
	for j := range a.Joints {
		d = math.Max(d, a.Joints[j].Dist(b.Joints[j]))
	}
	return d
}
