package fbx

import (
	"testing"

	"github.com/meshrig/meshrig/format"
)

// withColors adds two LayerElementColor sets to tinyRig's geometry: set 0
// by control point, Direct, vertex i red = i/4; set 1 by polygon vertex,
// IndexToDirect, the quad's corners colour 0 (red) and the triangle's
// colour 1 (blue).
func withColors(d *Document) *Document {
	for _, top := range d.Nodes {
		if top.Name != "Objects" {
			continue
		}
		for _, o := range top.Children {
			if o.Name != "Geometry" {
				continue
			}
			o.Children = append(o.Children,
				nd("LayerElementColor", ps(0),
					nd("Name", ps("grey")),
					nd("MappingInformationType", ps("ByControlPoint")),
					nd("ReferenceInformationType", ps("Direct")),
					nd("Colors", ps([]float64{0, 0, 0, 1, 0.25, 0, 0, 1, 0.5, 0, 0, 1, 0.75, 0, 0, 1, 1, 0, 0, 1}))),
				nd("LayerElementColor", ps(1),
					nd("Name", ps("parts")),
					nd("MappingInformationType", ps("ByPolygonVertex")),
					nd("ReferenceInformationType", ps("IndexToDirect")),
					nd("Colors", ps([]float64{1, 0, 0, 1, 0, 0, 1, 1})),
					nd("ColorIndex", ps([]int32{0, 0, 0, 0, 1, 1, 1}))))
		}
	}
	return d
}

// TestTinyColors: both mappings reach every triangle corner of
// mesh.Surface.Colors with the value the file gives that corner.
func TestTinyColors(t *testing.T) {
	sc := readTiny(t, withColors(tinyRig(7400)), 0, format.SceneOptions{})
	m := sc.Mesh
	s := m.Surface
	if s == nil || len(s.Colors) != 2 || s.Colors[0].Name != "grey" || s.Colors[1].Name != "parts" {
		t.Fatalf("surface %+v", s)
	}
	if err := s.Validate(len(m.Verts), len(m.Tris)); err != nil {
		t.Fatal(err)
	}
	for ti, tri := range m.Tris {
		for k, v := range tri {
			if got := s.Colors[0].At(ti, k, int(v)); got != [4]float32{float32(v) / 4, 0, 0, 1} {
				t.Errorf("set 0, triangle %d corner %d (vertex %d): %v", ti, k, v, got)
			}
			want := [4]float32{1, 0, 0, 1}
			if ti == 2 { // the triangle polygon, after the quad's two
				want = [4]float32{0, 0, 1, 1}
			}
			if got := s.Colors[1].At(ti, k, int(v)); got != want {
				t.Errorf("set 1, triangle %d corner %d: %v, want %v", ti, k, got, want)
			}
		}
	}
	if sc.Rig == nil || sc.Rig.Mesh.Surface == nil || len(sc.Rig.Mesh.Surface.Colors) != 2 {
		t.Error("the rig's mesh lacks the colours")
	}
}

// TestTinyColorIndexOutOfRange: a ColorIndex past the colours is refused
// with the layer's offset.
func TestTinyColorIndexOutOfRange(t *testing.T) {
	d := withColors(tinyRig(7400))
	for _, top := range d.Nodes {
		if top.Name == "Objects" {
			for _, o := range top.Children {
				if c := o.Child("LayerElementColor"); o.Name == "Geometry" && c != nil {
					o.Children[len(o.Children)-1].Child("ColorIndex").Props = ps([]int32{0, 0, 0, 0, 1, 1, 2})
				}
			}
		}
	}
	_, err := load(encode(d, 0))
	if err == nil {
		t.Fatal("a colour index out of range was read")
	}
	offsetOf(t, err)
}
