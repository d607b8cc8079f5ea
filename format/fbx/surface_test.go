package fbx

import (
	"testing"

	"github.com/meshrig/meshrig/format"
)

// TestTinySurface: the hand-made rig's UV layer per triangle corner (fans
// of its quad and triangle, v flipped to glTF's origin), and with two
// materials assigned per polygon, two parts.
func TestTinySurface(t *testing.T) {
	doc := tinyRig(7400)
	geo := objectNode(doc, 10)
	geo.Children = append(geo.Children, nd("LayerElementMaterial", ps(0),
		nd("MappingInformationType", ps("ByPolygon")),
		nd("ReferenceInformationType", ps("IndexToDirect")),
		nd("Materials", ps([]int32{0, 1}))))
	objs := doc.Find("Objects")
	objs.Children = append(objs.Children,
		nd("Material", ps(int64(60), "skin\x00\x01Material", ""),
			nd("Properties70", nil, p70("DiffuseColor", "Color", 1.0, 0.5, 0.25))),
		nd("Material", ps(int64(61), "cloth\x00\x01Material", "")))
	conns := doc.Find("Connections")
	conns.Children = append(conns.Children, nd("C", ps("OO", int64(60), int64(11))), nd("C", ps("OO", int64(61), int64(11))))
	sc := readTiny(t, doc, 0, format.SceneOptions{})
	s := sc.Mesh.Surface
	if s == nil || len(s.UVs) != 1 || s.UVs[0].Name != "map1" {
		t.Fatalf("surface %+v", s)
	}
	want := [3][3][2]float32{{{0, 1}, {1, 1}, {1, 0}}, {{0, 1}, {1, 0}, {0, 1}}, {{1, 1}, {1, 0}, {0, 1}}}
	for tri := range want {
		for k := 0; k < 3; k++ {
			if got := s.UVs[0].At(tri, k, sc.Mesh.Tris[tri][k]); got != want[tri][k] {
				t.Errorf("triangle %d corner %d: UV %v, want %v", tri, k, got, want[tri][k])
			}
		}
	}
	if len(s.Materials) != 2 || s.Materials[0].Name != "skin" || s.Materials[1].Name != "cloth" ||
		s.Materials[0].BaseColor != [4]float32{1, 0.5, 0.25, 1} {
		t.Errorf("materials %+v", s.Materials)
	}
	if len(s.Parts) != 2 || s.Part(0) != 0 || s.Part(1) != 0 || s.Part(2) != 1 ||
		s.Parts[0].Material != 0 || s.Parts[1].Material != 1 || s.Parts[0].Name != "body" {
		t.Errorf("parts %+v, triangle parts %v", s.Parts, s.TriPart)
	}
	if s.Normals != nil {
		t.Error("normals where the file has none")
	}
}

// TestLocalPath: a texture names a file inside the FBX's folder or none.
func TestLocalPath(t *testing.T) {
	for in, want := range map[string]string{
		"tex/skin.png": "tex/skin.png", `tex\skin.png`: "tex/skin.png", "./a.jpg": "a.jpg",
		"../a.png": "", "/etc/passwd": "", `D:\work\a.png`: "", "a/../../b.png": "", "": "", "..": "",
	} {
		if got := localPath(in); got != want {
			t.Errorf("localPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMicroSurface: the fuzz seed with a surface reads its UV layer,
// material and embedded texture.
func TestMicroSurface(t *testing.T) {
	sc := readTiny(t, microSurface(), 1, format.SceneOptions{})
	s := sc.Mesh.Surface
	if s == nil || len(s.UVs) != 1 || len(s.Materials) != 1 || len(s.Images) != 1 ||
		s.Images[0].Path != "t.png" || string(s.Images[0].Data) != "\x89PNG" || s.Materials[0].BaseColorTexture == nil {
		t.Fatalf("surface %v", s != nil)
	}
	if uv := s.UVs[0].At(0, 1, sc.Mesh.Tris[0][1]); uv != [2]float32{1, 0} {
		t.Errorf("corner 2 UV %v, want (1, 0) (v flipped)", uv)
	}
}
