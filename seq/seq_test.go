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

// TestFloat32Frames: frames are rounded to float32 on the way in, read
// back in float64, refused beyond float32's range, and an array filled in
// place past Frames' length is taken without a copy.
func TestFloat32Frames(t *testing.T) {
	s := New(tri())
	if err := s.AddFrame([]linalg.Vec3{{0.1, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "a"); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Pos(0, 0), (linalg.Vec3{float64(float32(0.1)), 0, 0}); got != want {
		t.Errorf("Pos(0, 0) = %v, want %v", got, want)
	}
	if got := s.FrameInto(make([]linalg.Vec3, 0, 3), 0); len(got) != 3 || got[1] != (linalg.Vec3{1, 0, 0}) {
		t.Errorf("FrameInto = %v", got)
	}
	err := s.AddFrame([]linalg.Vec3{{1e39, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "b")
	if err == nil || !strings.Contains(err.Error(), "beyond float32's range") {
		t.Errorf("1e39: %v", err)
	}
	s = New(tri())
	s.Frames = make([]linalg.Vec3f, 0, 6)
	for k := 0; k < 2; k++ {
		at := len(s.Frames)
		fr := s.Frames[at : at+3]
		fr[2] = linalg.Vec3f{0, 0, float32(k)}
		if err := s.AddFrames(fr, []string{"f"}); err != nil {
			t.Fatal(err)
		}
		if &s.Frames[at] != &fr[0] {
			t.Fatal("frames filled in place were copied")
		}
	}
	if s.F() != 2 || s.Pos(1, 2) != (linalg.Vec3{0, 0, 1}) || s.Validate() != nil {
		t.Errorf("F=%d Pos(1, 2)=%v validate=%v", s.F(), s.Pos(1, 2), s.Validate())
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
