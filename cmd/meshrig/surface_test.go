package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestRigKeepsSurface rigs CesiumMan with each method on a few frames and
// reads the written rig back: the input's vertices, UVs and normals bit
// for bit, its material and texture bytes, and its primitive count.
func TestRigKeepsSurface(t *testing.T) {
	in := shareddata.Path(t, filepath.Join("gltf", "CesiumMan.glb"))
	src, err := format.ReadScene(in, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := src.Mesh.Surface
	text, err := run(t, "info", in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "surface     1 UV set, normals, 1 material (1 textured), 1 image, 1 part\n"; !strings.Contains(text, want) {
		t.Errorf("info does not say what the surface keeps:\n%s", text)
	}
	for _, m := range []string{"ledeng", "face-clustering", "spectral"} {
		t.Run(m, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "cm.glb")
			if _, err := run(t, "rig", in, "-o", out, "--method", m, "--frames", "1:8"); err != nil {
				t.Fatal(err)
			}
			back, err := format.ReadScene(out, format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b := back.Mesh.Surface
			if len(back.Mesh.Verts) != len(src.Mesh.Verts) || b == nil {
				t.Fatalf("%d vertices, surface %v back", len(back.Mesh.Verts), b != nil)
			}
			for i := range src.Mesh.Verts {
				if a.UVs[0].Values[i] != b.UVs[0].Values[i] || a.Normals.Values[i] != b.Normals.Values[i] {
					t.Fatalf("vertex %d: UV %v normal %v back, %v %v in the input", i, b.UVs[0].Values[i], b.Normals.Values[i], a.UVs[0].Values[i], a.Normals.Values[i])
				}
			}
			if len(b.Parts) != len(a.Parts) || len(b.Materials) != 1 || b.Materials[0].Name != a.Materials[0].Name ||
				len(b.Images) != 1 || !bytes.Equal(b.Images[0].Data, a.Images[0].Data) {
				t.Fatalf("parts %d, materials %+v, %d images back", len(b.Parts), b.Materials, len(b.Images))
			}
		})
	}
}
