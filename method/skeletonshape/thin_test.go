package skeletonshape

import (
	"testing"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// TestFoldThin: a body with a long leg ending in a foot with two thin
// toes, skeletonized by hand. The toes (thinner than two resolutions,
// short against the leg) fold into the foot, whose joint becomes the
// leg's end; a spur as thin and as short at the hip, with no other end
// near it, is no digit and stays; toes thicker than two resolutions stay; resolution 0 folds
// nothing.
func TestFoldThin(t *testing.T) {
	box := func(lo, hi linalg.Vec3) testshape.Shape {
		return func() ([]linalg.Vec3, [][]int) { return testshape.Box(lo, hi) }
	}
	build := func(toe float64) (*bvh.Tree, *static.Skeleton) {
		m := testshape.Join(t,
			box(linalg.Vec3{-1, -1, -1}, linalg.Vec3{1, 1, 1}),           // body
			box(linalg.Vec3{0.2, -4, -0.2}, linalg.Vec3{0.6, -0.9, 0.2}), // leg
			box(linalg.Vec3{0.25 - toe, -4, 0.19}, linalg.Vec3{0.25 + toe, -4 + 2*toe, 0.7}),
			box(linalg.Vec3{0.55 - toe, -4, 0.19}, linalg.Vec3{0.55 + toe, -4 + 2*toe, 0.7}),
			box(linalg.Vec3{0.55, -1.23, -0.03}, linalg.Vec3{0.75, -1.17, 0.03}), // spur
		)
		s := &static.Skeleton{
			Joints: []linalg.Vec3{
				{0, 0, 0},                                      // 0 body, root
				{0.4, -1.2, 0},                                 // 1 hip
				{0.4, -2.5, 0},                                 // 2 knee
				{0.4, -3.8, 0},                                 // 3 foot, the toes' fork
				{0.25, -4 + toe, 0.45}, {0.25, -4 + toe, 0.65}, // 4, 5 toe
				{0.55, -4 + toe, 0.65}, // 6 toe
				{-0.5, 0.5, 0},         // 7 head side
				{0, 0.8, 0},            // 8 neck tip
				{0.72, -1.2, 0},        // 9 spur tip
			},
			Edges: [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {3, 6}, {0, 7}, {0, 8}, {1, 9}},
		}
		return bvh.New(m.Verts, m.Tris, nil), s
	}

	tree, s := build(0.03)
	out, n := FoldThin(s, tree, 0.05)
	if n != 3 || len(out.Joints) != 7 {
		t.Fatalf("thin toes: %d joints folded, %d left %v, want 3 and 7", n, len(out.Joints), out.Joints)
	}
	if !contains3(out.Joints, s.Joints[9]) {
		t.Errorf("the spur at the hip is gone: %v", out.Joints)
	}
	for _, p := range out.Joints {
		if p[2] > 0.3 {
			t.Errorf("a toe joint %v is left", p)
		}
	}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	if out.Joints[out.Root] != s.Joints[s.Root] {
		t.Errorf("root moved to %v", out.Joints[out.Root])
	}

	tree, s = build(0.15)
	if out, n := FoldThin(s, tree, 0.05); n != 0 {
		t.Errorf("toes 6 resolutions thick: %d joints folded, %d left", n, len(out.Joints))
	}
	tree, s = build(0.03)
	if _, n := FoldThin(s, tree, 0); n != 0 {
		t.Errorf("resolution 0: %d joints folded", n)
	}
}
