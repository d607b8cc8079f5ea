package static

import (
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

func TestTreeCutsLoops(t *testing.T) {
	// A square loop 0-1-2-3-0 with a tail 2-4, rooted at 0.
	s := &Skeleton{Joints: make([]linalg.Vec3, 5), Edges: [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {2, 4}}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	parent, order := s.Tree()
	if len(order) != 5 || parent[0] != -1 {
		t.Fatalf("parents %v order %v", parent, order)
	}
	tree := 0
	for _, p := range parent {
		if p >= 0 {
			tree++
		}
	}
	if tree != 4 {
		t.Fatalf("%d tree edges, want 4", tree)
	}
}

func TestValidateRejects(t *testing.T) {
	for name, s := range map[string]*Skeleton{
		"empty":        {},
		"bad root":     {Joints: make([]linalg.Vec3, 2), Root: 2, Edges: [][2]int{{0, 1}}},
		"self edge":    {Joints: make([]linalg.Vec3, 2), Edges: [][2]int{{1, 1}}},
		"disconnected": {Joints: make([]linalg.Vec3, 3), Edges: [][2]int{{0, 1}}},
	} {
		if err := s.Validate(); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
