package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
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

// texturedSnake generates a snake sequence and rewrites its rest.obj with
// a vt per vertex (its x, y over the box), every face in material
// "scales" of snake.mtl, whose map_Kd is scales.png; it returns the folder
// and the texture's bytes.
func texturedSnake(t *testing.T) (string, []byte) {
	dir := gen(t, "snake")
	rest := filepath.Join(dir, "rest.obj")
	m, err := format.ReadMesh(rest)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := m.Verts[0], m.Verts[0]
	for _, v := range m.Verts {
		lo, hi = lo.Min(v), hi.Max(v)
	}
	var b strings.Builder
	b.WriteString("mtllib snake.mtl\n")
	for _, v := range m.Verts {
		fmt.Fprintf(&b, "v %g %g %g\n", v[0], v[1], v[2])
	}
	for _, v := range m.Verts {
		fmt.Fprintf(&b, "vt %g %g\n", (v[0]-lo[0])/(hi[0]-lo[0]), (v[1]-lo[1])/(hi[1]-lo[1]))
	}
	b.WriteString("usemtl scales\n")
	for k := 0; k < m.NumPolys(); k++ {
		b.WriteString("f")
		for _, i := range m.Poly(k) {
			fmt.Fprintf(&b, " %d/%d", i+1, i+1)
		}
		b.WriteString("\n")
	}
	png, err := os.ReadFile(filepath.Join("..", "..", "format", "obj", "testdata", "textured", "checker.png"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"rest.obj":   []byte(b.String()),
		"snake.mtl":  []byte("newmtl scales\nKd 0.2 0.6 0.3\nmap_Kd scales.png\n"),
		"scales.png": png,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, png
}

// sameScales checks a written rig read back against the textured snake's
// rest surface: UVs per vertex, the material's colour, the texture bytes.
func sameScales(t *testing.T, out string, want *mesh.Surface, png []byte) {
	t.Helper()
	back, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := back.Mesh.Surface
	if got == nil || len(got.UVs) != 1 {
		t.Fatalf("surface %+v back", got)
	}
	for tr, tri := range back.Mesh.Tris {
		for k, v := range tri {
			if got.UVs[0].Values[v] != want.UVs[0].At(tr, k, v) {
				t.Fatalf("vertex %d: UV %v, want %v", v, got.UVs[0].Values[v], want.UVs[0].At(tr, k, v))
			}
		}
	}
	mt := got.Materials[0]
	if mt.Name != "scales" || mt.BaseColor != [4]float32{0.2, 0.6, 0.3, 1} || mt.BaseColorTexture == nil ||
		!bytes.Equal(got.Images[mt.BaseColorTexture.Image].Data, png) {
		t.Fatalf("material %+v", mt)
	}
}

// TestRigKeepsOBJMaterials rigs a generated OBJ sequence whose rest.obj
// has UVs, a material library and a texture: Load lists the library and
// the texture among the files read, and the written rig reads back with
// the rest mesh's UVs per vertex, its material and the texture's bytes.
func TestRigKeepsOBJMaterials(t *testing.T) {
	dir, png := texturedSnake(t)
	in, err := format.Load([]string{dir}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"snake.mtl", "scales.png"} {
		if !slices.Contains(in.Files, filepath.Join(dir, f)) {
			t.Errorf("Load does not list %s among %d files read", f, len(in.Files))
		}
	}
	want := in.Sequence.Rest.Surface
	out := filepath.Join(t.TempDir(), "snake.glb")
	if _, err := run(t, "rig", dir, "-o", out, "--method", "face-clustering"); err != nil {
		t.Fatal(err)
	}
	sameScales(t, out, want, png)
}

// TestSkeletonizeKeepsOBJMaterials: a static OBJ skeletonized keeps its
// material library's material and texture.
func TestSkeletonizeKeepsOBJMaterials(t *testing.T) {
	dir, png := texturedSnake(t)
	rest := filepath.Join(dir, "rest.obj")
	want, _, err := format.ReadRestMesh(rest)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "snake.glb")
	if _, err := run(t, "skeletonize", rest, "-o", out, "--weights", "rigid"); err != nil {
		t.Fatal(err)
	}
	sameScales(t, out, want.Surface, png)
}
