package contraction

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

func tris(t *testing.T, m *mesh.Mesh) [][3]int {
	t.Helper()
	return append([][3]int(nil), m.Tris...)
}

// TestShapes: the test shapes are closed and face outward (positive
// signed volume near the true one).
func TestShapes(t *testing.T) {
	for name, c := range map[string]struct {
		mk   func() ([]linalg.Vec3, [][]int)
		want float64
	}{
		"capsule": {func() ([]linalg.Vec3, [][]int) { return capsule(2, 0.5, 48, 80, 16) }, math.Pi*0.25*4 + 4*math.Pi*0.125/3},
		"T":       {func() ([]linalg.Vec3, [][]int) { return polycube(tShape(3, 4), 4) }, 11},
		"torus":   {func() ([]linalg.Vec3, [][]int) { return testshape.Torus(2, 0.5, 96, 48) }, 2 * math.Pi * math.Pi * 2 * 0.25},
	} {
		m := testshape.Join(t, c.mk)
		if !isClosed(m.Tris) {
			t.Errorf("%s has a boundary", name)
		}
		var signed float64
		for _, tri := range m.Tris {
			signed += m.Verts[tri[0]].Dot(m.Verts[tri[1]].Cross(m.Verts[tri[2]])) / 6
		}
		if math.Abs(signed-c.want) > 0.02*c.want {
			t.Errorf("%s: signed volume %.4f, want %.4f", name, signed, c.want)
		}
	}
}

// TestWeld: copies within the tolerance map to the first of them, points
// just beyond it do not.
func TestWeld(t *testing.T) {
	pos := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, 5e-8}, {1, 0, 3e-7}, {1, 0, 0}}
	got := weld(pos, 1e-7)
	if want := []int{0, 1, 0, 3, 1}; !slices.Equal(got, want) {
		t.Fatalf("weld = %v, want %v", got, want)
	}
}

// TestFillHoles: an open capsule comes back closed, with one new vertex
// per hole outside the old surface, and consistently oriented (its
// volume is positive and near the capsule's); the flattened positions
// joints are centred on are the same but for the apices, which sit at
// their holes' centres, inside the open mesh's bounding box.
func TestFillHoles(t *testing.T) {
	v, f := capsule(2, 0.5, 24, 40, 8)
	m, err := mesh.New(v, f)
	if err != nil {
		t.Fatal(err)
	}
	var open [][3]int
	for _, tri := range m.Tris {
		if v[tri[0]][0] < 2 || v[tri[1]][0] < 2 || v[tri[2]][0] < 2 {
			if v[tri[0]][0] > -2 || v[tri[1]][0] > -2 || v[tri[2]][0] > -2 {
				open = append(open, tri)
			}
		}
	}
	if isClosed(open) {
		t.Fatal("the cut capsule is closed")
	}
	pos, closed, holes, flat := fillHoles(append([]linalg.Vec3(nil), v...), open)
	if holes != 2 || len(pos) != len(v)+2 || !isClosed(closed) {
		t.Fatalf("%d holes closed, %d new vertices, closed %v", holes, len(pos)-len(v), isClosed(closed))
	}
	if len(flat) != len(pos) || !slices.Equal(flat[:len(v)], pos[:len(v)]) {
		t.Fatalf("flattened positions differ from the mesh's")
	}
	var cut float64 // how far the open mesh reaches along x
	for _, tri := range open {
		for _, i := range tri {
			cut = math.Max(cut, math.Abs(v[i][0]))
		}
	}
	for k, apex := range pos[len(v):] {
		if math.Abs(apex[0]) <= cut || math.Hypot(apex[1], apex[2]) > 1e-9 {
			t.Errorf("cap apex %v: want it on the axis beyond the cut", apex)
		}
		if c := flat[len(v)+k]; math.Abs(c[0]) > cut || math.Abs(c[0]) < 1.5 || math.Hypot(c[1], c[2]) > 1e-9 {
			t.Errorf("flattened apex %v: want it on the axis at the cut, within |x| ≤ %.3f", c, cut)
		}
	}
	var signed float64
	for _, tri := range closed {
		signed += pos[tri[0]].Dot(pos[tri[1]].Cross(pos[tri[2]])) / 6
	}
	want := math.Pi * 0.25 * 4 // the cylinder between the cuts, about
	if signed < 0.8*want || signed > 1.3*want {
		t.Errorf("signed volume %.3f, want about %.3f (consistent orientation)", signed, want)
	}
}

// TestSubdivide: four times the triangles, the same area, each old
// vertex kept, each edge split once.
func TestSubdivide(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Torus(2, 0.5, 12, 6) })
	pos, tr := subdivide(append([]linalg.Vec3(nil), m.Verts...), tris(t, m))
	top := mesh.NewTopology(m)
	if len(tr) != 4*len(m.Tris) || len(pos) != len(m.Verts)+len(top.Edges) {
		t.Fatalf("%d triangles, %d vertices", len(tr), len(pos))
	}
	if a, b := area(m.Verts, m.Tris), area(pos, tr); math.Abs(a-b) > 1e-9*a {
		t.Errorf("area %g became %g", a, b)
	}
	if !isClosed(tr) {
		t.Error("the subdivided torus is not closed")
	}
}

// TestDecimate: a dense torus simplified to a target keeps its shape (every
// kept vertex is an old one, on the torus), stays closed, and maps every
// old vertex to a kept one nearby.
func TestDecimate(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Torus(2, 0.5, 96, 32) })
	pos, tr, to, err := decimate(context.Background(), m.Verts, tris(t, m), 600)
	if err != nil {
		t.Fatal(err)
	}
	if len(pos) > 600 || len(pos) < 500 {
		t.Fatalf("%d vertices, want at most 600 (and not far fewer)", len(pos))
	}
	if !isClosed(tr) {
		t.Fatal("the decimated torus has a boundary")
	}
	top := mesh.NewTopology(&mesh.Mesh{Verts: pos, Tris: tr})
	if chi := len(pos) - len(top.Edges) + len(tr); chi != 0 {
		t.Errorf("Euler characteristic %d, want 0 (still a torus)", chi)
	}
	for i, p := range pos {
		if d := math.Abs(math.Hypot(math.Hypot(p[0], p[1])-2, p[2]) - 0.5); d > 1e-9 {
			t.Fatalf("kept vertex %d at %v is off the torus by %g", i, p, d)
		}
	}
	for i, k := range to {
		if k < 0 || int(k) >= len(pos) {
			t.Fatalf("vertex %d maps to %d", i, k)
		}
		if d := m.Verts[i].Dist(pos[k]); d > 1 {
			t.Errorf("vertex %d maps to a vertex %.2f away", i, d)
		}
	}
}

// TestLaplacian: L is symmetric with zero row sums, equals twice
// mesh.Cotan on a well-shaped mesh (the Collada paper's Eq. 1 has
// cot α + cot β, Cotan half of it), and stays positive semi-definite on
// needle triangles.
func TestLaplacian(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(1, 0.5, 12, 6, 3) })
	lap := newLaplacian(len(m.Verts), m.Tris)
	lap.update(m.Verts)
	l, ref := lap.l, mesh.Cotan(m.Verts, m.Tris)
	for i := 0; i < l.N; i++ {
		var sum float64
		for k := l.RowPtr[i]; k < l.RowPtr[i+1]; k++ {
			j := int(l.Col[k])
			sum += l.Val[k]
			if d := l.Val[k] - 2*ref.At(i, j); math.Abs(d) > 1e-9 {
				t.Fatalf("L[%d][%d] = %g, want %g", i, j, l.Val[k], 2*ref.At(i, j))
			}
			if l.Val[k] != l.At(j, i) {
				t.Fatalf("L is not symmetric at %d, %d", i, j)
			}
		}
		if math.Abs(sum) > 1e-9 {
			t.Fatalf("row %d sums to %g", i, sum)
		}
	}
	// Flatten the capsule nearly onto a line: needles everywhere.
	squashed := make([]linalg.Vec3, len(m.Verts))
	for i, p := range m.Verts {
		squashed[i] = linalg.Vec3{p[0], p[1] * 1e-7, p[2] * 1e-7}
	}
	lap.update(squashed)
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, l.N)
	for trial := 0; trial < 50; trial++ {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		lx := l.MulVec(nil, x)
		if q := dot(x, lx); q < -1e-9*dot(x, x) {
			t.Fatalf("xᵀLx = %g < 0 on needles", q)
		}
	}
}

// TestSolverStep: one preconditioned step equals the dense least-squares
// solution of [W_L·L; W_H] V' = [0; W_H·V].
func TestSolverStep(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(1, 0.5, 10, 5, 3) })
	n := len(m.Verts)
	lap := newLaplacian(n, m.Tris)
	lap.update(m.Verts)
	wh := make([]float64, n)
	for i := range wh {
		wh[i] = 1 + float64(i%7) // uneven, as after a few iterations
	}
	const wl = 3.0
	got, iters, err := newSolver(lap).step(m.Verts, wl, wh)
	if err != nil {
		t.Fatal(err)
	}
	a := mat.NewDense(2*n, n, nil)
	b := mat.NewDense(2*n, 3, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, wl*lap.l.At(i, j))
		}
		a.Set(n+i, i, wh[i])
		for c := 0; c < 3; c++ {
			b.Set(n+i, c, wh[i]*m.Verts[i][c])
		}
	}
	var want mat.Dense
	if err := want.Solve(a, b); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			if d := got[i][c] - want.At(i, c); math.Abs(d) > 1e-6 {
				t.Fatalf("vertex %d coordinate %d: %g, want %g (%d iterations)", i, c, got[i][c], want.At(i, c), iters)
			}
		}
	}
	if iters > 60 {
		t.Errorf("%d conjugate-gradient iterations; the preconditioner should keep it to tens", iters)
	}
}

// TestQuadrics: the line quadric measures squared distance to the line,
// the plane quadric weighted squared distance to the plane.
func TestQuadrics(t *testing.T) {
	a, b := linalg.Vec3{1, 2, 3}, linalg.Vec3{4, 6, 3} // along (3, 4, 0)/5
	q := lineQuadric(a, b)
	for _, c := range []struct {
		x    linalg.Vec3
		want float64
	}{{a, 0}, {linalg.Vec3{7, 10, 3}, 0}, {linalg.Vec3{1, 2, 5}, 4}, {linalg.Vec3{1 + 4, 2 - 3, 3}, 25}} {
		if got := q.eval(c.x); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("line quadric at %v = %g, want %g", c.x, got, c.want)
		}
	}
	if z := lineQuadric(a, a); z != (quadric{}) {
		t.Errorf("degenerate segment gave %v", z)
	}
	p := planeQuadric(linalg.Vec3{0, 0, 1}, linalg.Vec3{5, 5, 2}, 3)
	if got := p.eval(linalg.Vec3{-1, 7, 5}); math.Abs(got-27) > 1e-9 {
		t.Errorf("plane quadric = %g, want 3·3² = 27", got)
	}
}

// TestJoinComponents: three pieces are joined by two links, each the
// closest pair between the pieces it joins.
func TestJoinComponents(t *testing.T) {
	pos := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {5, 0, 0}, {6, 0, 0}, {1.5, 3, 0}, {1.5, 4, 0}}
	comp := []int{0, 0, 1, 1, 2, 2}
	joins, err := joinComponents(context.Background(), pos, comp, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	for _, j := range joins {
		got = append(got, undirected(j[0], j[1]))
	}
	slices.SortFunc(got, func(a, b [2]int) int { return a[1] - b[1] })
	if want := [][2]int{{1, 2}, {1, 4}}; !slices.Equal(got, want) {
		t.Errorf("joins %v, want %v (either order)", joins, want)
	}
}

// TestSplitBones: the longest bone is split first, at its middle.
func TestSplitBones(t *testing.T) {
	sk := &static.Skeleton{Joints: []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {4, 0, 0}}, Edges: [][2]int{{0, 1}, {1, 2}}}
	if n, err := splitBones(context.Background(), sk, 5); n != 2 || err != nil {
		t.Fatalf("%d joints added (%v), want 2", n, err)
	}
	if sk.Joints[3] != (linalg.Vec3{2.5, 0, 0}) || sk.Joints[4] != (linalg.Vec3{1.75, 0, 0}) {
		t.Errorf("joints %v", sk.Joints)
	}
	if err := sk.Validate(); err != nil || len(sk.Edges) != 4 {
		t.Errorf("bones %v: %v", sk.Edges, err)
	}
}
