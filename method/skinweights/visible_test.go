package skinweights

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
)

// boxes returns a large box around the origin and, beside it, a small
// one, as one mesh: the large box's corners at x = 1 are nearer the small
// box's bone than their own, through the small box's wall.
func boxes(t *testing.T) ([]linalg.Vec3, [][3]int, int) {
	big := func() ([]linalg.Vec3, [][]int) {
		return testshape.Box(linalg.Vec3{-1, -1, -1}, linalg.Vec3{1, 1, 1})
	}
	small := func() ([]linalg.Vec3, [][]int) {
		return testshape.Box(linalg.Vec3{1.1, -0.3, -0.3}, linalg.Vec3{1.9, 0.3, 0.3})
	}
	m := testshape.Join(t, big, small)
	return m.Verts, m.Tris, 8 // the large box's vertices come first
}

// heat returns the raw heat weights of the mesh pos, tris for segs.
func heat(t *testing.T, pos []linalg.Vec3, tris [][3]int, segs []Segment, joints int) []float64 {
	t.Helper()
	hs, err := NewHeatSolver(pos, tris)
	if err != nil {
		t.Fatal(err)
	}
	w, err := hs.Solve(pos, segs, joints)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestHeatSeesThroughNoWall: each box's vertices take their own bone
// only, though some are nearer the other's (de Aguiar §7, Baran &
// Popović: the nearest bone counts only where the line to it stays
// inside the surface).
func TestHeatSeesThroughNoWall(t *testing.T) {
	pos, tris, nBig := boxes(t)
	segs := []Segment{
		{A: linalg.Vec3{-0.5, 0, 0}, B: linalg.Vec3{0.5, 0, 0}, Joint: 0},
		{A: linalg.Vec3{1.3, 0, 0.1}, B: linalg.Vec3{1.7, 0, 0.1}, Joint: 1},
	}
	// The premise: a corner of the large box is nearer the small bone.
	if c := (linalg.Vec3{1, 1, 1}); segs[1].Dist(c) >= segs[0].Dist(c) {
		t.Fatal("the corner is nearer its own bone: the test shows nothing")
	}
	w := heat(t, pos, tris, segs, 2)
	for i := range pos {
		own := 0
		if i >= nBig {
			own = 1
		}
		if math.Abs(w[i*2+own]-1) > 1e-9 {
			t.Errorf("vertex %d at %v: weight %.4f for its own box's bone", i, pos[i], w[i*2+own])
		}
	}
}

// TestHeatPartWithoutBone: a part that sees no bone (the skeleton misses
// it) still gets weights, from its nearest bones, summing to one.
func TestHeatPartWithoutBone(t *testing.T) {
	pos, tris, _ := boxes(t)
	segs := []Segment{{A: linalg.Vec3{-0.5, 0, 0}, B: linalg.Vec3{0.5, 0, 0.2}, Joint: 0},
		{A: linalg.Vec3{0.5, 0, 0.2}, B: linalg.Vec3{0.5, 0.5, 0.2}, Joint: 1}}
	w := heat(t, pos, tris, segs, 2)
	for i := range pos {
		if s := w[i*2] + w[i*2+1]; math.Abs(s-1) > 1e-9 || math.IsNaN(s) {
			t.Errorf("vertex %d: weights sum to %v", i, s)
		}
	}
}
