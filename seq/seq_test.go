package seq

import (
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

func tri() *mesh.Mesh {
	m, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, [][]int{{0, 1, 2}})
	return m
}

func TestAddFrameChecks(t *testing.T) {
	s := New(tri())
	if err := s.AddFrame([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 1}}, "a.obj"); err != nil {
		t.Fatal(err)
	}
	err := s.AddFrame([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}}, "b.obj")
	if err == nil || !strings.Contains(err.Error(), "frame 2 (b.obj): 2 vertices, the rest pose has 3") {
		t.Fatalf("mismatch error = %v", err)
	}
	err = s.AddFrame([]linalg.Vec3{{0, 0, 0}, {math.NaN(), 0, 0}, {0, 1, 0}}, "c.obj")
	if err == nil || !strings.Contains(err.Error(), "vertex 2") {
		t.Fatalf("NaN error = %v", err)
	}
	if s.F() != 1 || s.Validate() != nil {
		t.Fatalf("F=%d validate=%v", s.F(), s.Validate())
	}
	if got := s.Pos(0, 2); got != (linalg.Vec3{0, 1, 1}) {
		t.Fatalf("Pos(0, 2) = %v", got)
	}
}

func TestClipsAndMerge(t *testing.T) {
	a := New(tri())
	a.StartClip("walk", 24)
	for i := 0; i < 3; i++ {
		_ = a.AddFrame(tri().Verts, "w")
	}
	b := New(tri())
	b.StartClip("run", 30)
	_ = b.AddFrame(tri().Verts, "r")
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(m.Clips) != 2 || m.Clips[1].Start != 3 || m.Clips[1].End != 4 || m.Clips[0].FPS != 24 {
		t.Fatalf("clips %+v", m.Clips)
	}
	if err := New(tri()).Validate(); err == nil {
		t.Fatal("empty sequence validated")
	}
}

// TestMergeRenamesRepeatedClips: two folders of one name give two clips
// that a file can keep apart.
func TestMergeRenamesRepeatedClips(t *testing.T) {
	var parts []*Sequence
	for _, name := range []string{"walk", "walk", "walk_2", "walk"} {
		p := New(tri())
		p.StartClip(name, 30)
		_ = p.AddFrame(tri().Verts, name)
		parts = append(parts, p)
	}
	m, err := Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range m.Clips {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "walk,walk_2,walk_2_2,walk_3" {
		t.Errorf("clip names %s, want walk,walk_2,walk_2_2,walk_3", got)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
}

// TestValidateClips: a clip needs a name of its own and a rate.
func TestValidateClips(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *Clip)
		ok   bool
	}{
		{"as built", func(c *Clip) {}, true},
		{"no name", func(c *Clip) { c.Name = "" }, false},
		{"not UTF-8", func(c *Clip) { c.Name = "\xff" }, false},
		{"name of the other clip", func(c *Clip) { c.Name = "walk" }, false},
		{"zero rate", func(c *Clip) { c.FPS = 0 }, false},
		{"NaN rate", func(c *Clip) { c.FPS = math.NaN() }, false},
		{"infinite rate", func(c *Clip) { c.FPS = math.Inf(1) }, false},
	} {
		s := New(tri())
		s.StartClip("walk", 24)
		_ = s.AddFrame(tri().Verts, "a")
		s.StartClip("run", 24)
		_ = s.AddFrame(tri().Verts, "b")
		tc.edit(&s.Clips[1])
		if err := s.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}
