package mesh

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// quadSurface is a quad split in two triangles with a per-corner UV set,
// per-vertex normals, two parts and a textured material.
func quadSurface(t *testing.T) *Mesh {
	m, err := New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, [][]int{{0, 1, 2}, {0, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	mat := NewMaterial("skin")
	mat.BaseColorTexture = &TextureRef{Image: 0, Scale: 1}
	m.Surface = &Surface{
		UVs:       []Attr[[2]float32]{{Values: [][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5, 0.5}}, Index: []int32{0, 1, 2, 4, 2, 3}}},
		Normals:   &Attr[[3]float32]{Values: [][3]float32{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}}},
		Materials: []Material{mat},
		Images:    []Image{{Name: "tex", MIMEType: "image/png", Data: []byte{1, 2, 3}}},
		Parts:     []Part{{Name: "a", Material: 0}, {Name: "b", Material: -1}},
		TriPart:   []int32{0, 1},
	}
	return m
}

func TestSurfaceValidate(t *testing.T) {
	if err := quadSurface(t).Validate(); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		edit func(s *Surface)
		want string
	}{
		"short normals":  {func(s *Surface) { s.Normals.Values = s.Normals.Values[:3] }, "normals has 3 values for 4 vertices"},
		"corner index":   {func(s *Surface) { s.UVs[0].Index[5] = 9 }, "corner 3 of triangle 2"},
		"short corners":  {func(s *Surface) { s.UVs[0].Index = s.UVs[0].Index[:3] }, "3 corner indices for 2 triangles"},
		"part material":  {func(s *Surface) { s.Parts[1].Material = 4 }, "part 2: material 5 of 1"},
		"triangle part":  {func(s *Surface) { s.TriPart[1] = 2 }, "triangle 2: part 3 of 2"},
		"no tri parts":   {func(s *Surface) { s.TriPart = nil }, "2 parts but no part per triangle"},
		"missing image":  {func(s *Surface) { s.Materials[0].BaseColorTexture.Image = 1 }, "image 2 of 1"},
		"missing uv set": {func(s *Surface) { s.Materials[0].BaseColorTexture.UVSet = 1 }, "UV set 1 of 1"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m := quadSurface(t)
			c.edit(m.Surface)
			err := m.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestSurfaceAtAndClone(t *testing.T) {
	m := quadSurface(t)
	s := m.Surface
	if got := s.UVs[0].At(1, 0, m.Tris[1][0]); got != [2]float32{0.5, 0.5} {
		t.Fatalf("corner UV %v", got)
	}
	if got := s.Normals.At(1, 2, m.Tris[1][2]); got != [3]float32{0, 0, 1} {
		t.Fatalf("vertex normal %v", got)
	}
	if s.Part(1) != 1 || s.UVs[0].PerCorner() != true || s.Normals.PerCorner() {
		t.Fatal("part or domain wrong")
	}
	c := m.Clone()
	c.Surface.UVs[0].Values[0][0] = 7
	c.Surface.Images[0].Data[0] = 7
	c.Surface.Materials[0].BaseColorTexture.Scale = 7
	if s.UVs[0].Values[0][0] == 7 || s.Images[0].Data[0] == 7 || s.Materials[0].BaseColorTexture.Scale == 7 {
		t.Fatal("clone shares data with the original")
	}
	if w := m.WithVerts(m.Verts); w.Surface != s {
		t.Fatal("a frame does not share the rest mesh's surface")
	}
}

func TestPolyCorners(t *testing.T) {
	// A quad and a pentagon: corners 0–3 and 4–8.
	m, err := New(make([]linalg.Vec3, 7), [][]int{{0, 1, 2, 3}, {1, 4, 5, 6, 2}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.PolyCorners()
	if err != nil {
		t.Fatal(err)
	}
	want := []int32{0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 4, 7, 8}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("corners %v, want %v", got, want)
	}
	for c, pc := range got { // each triangle corner is its polygon corner's vertex
		if m.Tris[c/3][c%3] != m.PolyVerts[pc] {
			t.Fatalf("corner %d: vertex %d, polygon corner %d has %d", c, m.Tris[c/3][c%3], pc, m.PolyVerts[pc])
		}
	}
	tri := quadSurface(t)
	if got, _ := tri.PolyCorners(); fmt.Sprint(got) != "[0 1 2 3 4 5]" {
		t.Fatalf("all-triangle mesh: %v", got)
	}
	m.Tris[1] = [3]int{0, 3, 2}
	if _, err := m.PolyCorners(); err == nil || !strings.Contains(err.Error(), "triangle 2 is not the fan of polygon 1") {
		t.Fatalf("err = %v", err)
	}
}

func TestUVTransform(t *testing.T) {
	// KHR_texture_transform's example: a quarter turn, then offset.
	x := UVTransform{Offset: [2]float32{0.5, 0}, Rotation: math.Pi / 2, Scale: [2]float32{2, 1}}
	u, v := x.Apply(1, 0) // scaled to (2, 0), turned to (0, 2), moved to (0.5, 2)
	if math.Abs(u-0.5) > 1e-6 || math.Abs(v-2) > 1e-6 {
		t.Fatalf("(%g, %g), want (0.5, 2)", u, v)
	}
}
