package skeletonshape

import (
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// TestHeadBase: a named neck running straight from the chest to the
// head's centre and on to the snout's tip (a fox's, as thick as the
// head: no waist) gets a joint where the bone from the neck's base enters
// the head's ball, on the plane, splitting that bone; when the two
// joints' balls already meet, when the head's tip hangs from the chest,
// or when the skeleton is not named, nothing is added.
func TestHeadBase(t *testing.T) {
	plane := Plane{Normal: linalg.Vec3{1, 0, 0}}
	names := []string{"chest", "neck", "neck.001", "head"}
	skeleton := func() *static.Skeleton {
		return &static.Skeleton{
			Joints: []linalg.Vec3{{0, 1, -1}, {0, 1, 0}, {0, 2, 4}, {0, 1.5, 5}},
			Edges:  [][2]int{{0, 1}, {1, 2}, {2, 3}},
			Names:  append([]string(nil), names...),
		}
	}
	// The neck's base and the head's centre are sqrt(17) ≈ 4.12 apart.
	s := skeleton()
	if !HeadBase(s, []float64{1.2, 1.2, 1, 0.1}, plane) {
		t.Fatalf("no joint added: %v", s.Joints)
	}
	if len(s.Joints) != 5 || len(s.Names) != 5 || s.Names[4] != "" {
		t.Fatalf("joints %v, names %q: want one more, unnamed", s.Joints, s.Names)
	}
	c, p := linalg.Vec3{0, 2, 4}, linalg.Vec3{0, 1, 0}
	want := c.Add(p.Sub(c).Unit())
	if got := s.Joints[4]; got.Dist(want) > 1e-12 || got[0] != 0 {
		t.Errorf("joint at %v, want %v (one head radius from its centre towards the neck's base, on the plane)", got, want)
	}
	adj := adjacency(len(s.Joints), s.Edges)
	if len(adj[4]) != 2 || !contains(adj[4], 1) || !contains(adj[4], 2) || contains(adj[1], 2) {
		t.Errorf("bones %v: want neck – new joint – head's centre", s.Edges)
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}

	for _, c := range []struct {
		name   string
		radius []float64
		edit   func(s *static.Skeleton)
	}{
		{"balls meet", []float64{2.5, 2.5, 1.8, 0.1}, nil},
		{"neck thinner than the head", []float64{1.2, 0.8, 1, 0.1}, nil},
		{"tip on the chest", []float64{1.2, 1.2, 1, 0.1}, func(s *static.Skeleton) { s.Names[2] = "chest" }},
		{"not named", []float64{1.2, 1.2, 1, 0.1}, func(s *static.Skeleton) { s.Names = nil }},
	} {
		s := skeleton()
		if c.edit != nil {
			c.edit(s)
		}
		if HeadBase(s, c.radius, plane) || len(s.Joints) != 4 {
			t.Errorf("%s: joint added: %v", c.name, s.Joints)
		}
	}
}
