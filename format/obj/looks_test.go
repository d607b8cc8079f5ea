package obj

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
)

// TestReadFSTextured reads two quads with a UV and normal seam between
// them and two materials from a library with a texture: per-corner UVs (v
// flipped) and normals, a part per material, the library's colours and
// the texture's bytes.
func TestReadFSTextured(t *testing.T) {
	dir := filepath.Join("testdata", "textured")
	m, side, err := ReadFS(os.DirFS(dir), "textured.obj")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(side, " "); got != "textured.mtl checker.png" {
		t.Fatalf("side files %q, want the library and the texture (missing.mtl skipped)", got)
	}
	s := m.Surface
	if len(m.Verts) != 6 || len(m.Tris) != 4 || s == nil || len(s.UVs) != 1 || s.Normals == nil {
		t.Fatalf("%d vertices, %d triangles, surface %+v", len(m.Verts), len(m.Tris), s)
	}
	// Triangle 2 is the second quad's first fan triangle: corners 2/5/2,
	// 5/2/2, 6/3/2.
	wantUV := [3][2]float32{{0.5, 0.75}, {1, 1}, {1, 0}}
	for k := 0; k < 3; k++ {
		if got := s.UVs[0].At(2, k, m.Tris[2][k]); got != wantUV[k] {
			t.Errorf("triangle 3 corner %d: UV %v, want %v", k+1, got, wantUV[k])
		}
		if got := s.Normals.At(2, k, m.Tris[2][k]); got != [3]float32{0, 0.6, 0.8} {
			t.Errorf("triangle 3 corner %d: normal %v", k+1, got)
		}
	}
	// Vertex 2 (index 1) has UV (1,0)→(1,1) in the first quad and
	// (0.5,0.25)→(0.5,0.75) in the second: the seam is kept per corner.
	if a, b := s.UVs[0].At(0, 1, 1), s.UVs[0].At(2, 0, 1); a == b {
		t.Fatalf("seam lost: vertex 2 has UV %v in both quads", a)
	}
	if len(s.Parts) != 2 || s.Parts[0] != (mesh.Part{Name: "panel", Material: 0}) || s.Parts[1] != (mesh.Part{Name: "panel", Material: 1}) {
		t.Fatalf("parts %+v", s.Parts)
	}
	if got := s.TriPart; len(got) != 4 || got[0] != 0 || got[1] != 0 || got[2] != 1 || got[3] != 1 {
		t.Fatalf("triangle parts %v", got)
	}
	painted, plain := s.Materials[0], s.Materials[1]
	if painted.Name != "painted" || painted.BaseColor != [4]float32{0.8, 0.2, 0.1, 1} || painted.BaseColorTexture == nil {
		t.Fatalf("painted: %+v", painted)
	}
	if plain.Name != "plain" || plain.BaseColor != [4]float32{0.1, 0.5, 0.9, 0.5} || plain.AlphaMode != "BLEND" || plain.BaseColorTexture != nil {
		t.Fatalf("plain: %+v", plain)
	}
	png, err := os.ReadFile(filepath.Join(dir, "checker.png"))
	if err != nil {
		t.Fatal(err)
	}
	im := s.Images[painted.BaseColorTexture.Image]
	if !bytes.Equal(im.Data, png) || im.MIMEType != "image/png" || im.Path != "checker.png" {
		t.Fatalf("image %q %s, %d bytes", im.Path, im.MIMEType, len(im.Data))
	}
	// Read alone (as a frame), the file keeps names but no library.
	f, err := Read(strings.NewReader(mustRead(t, filepath.Join(dir, "textured.obj"))))
	if err != nil {
		t.Fatal(err)
	}
	if f.Surface == nil || f.Surface.Materials[0].Name != "painted" || len(f.Surface.Images) != 0 {
		t.Fatalf("Read: %+v", f.Surface)
	}
}

func mustRead(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadLooksErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		want     string
	}{
		{"vt past end", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/1\n", 5, "texture coordinate index 2 out of range"},
		{"vn past end", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//3\n", 5, "normal index 3 out of range"},
		{"relative vt", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/-2 2/1 3/1\n", 5, "before the first texture coordinate"},
		{"bad vt", "vt 0 x\n", 1, `bad value "x"`},
		{"short vn", "vn 0 1\n", 1, "vn has 2 values, need 3"},
		{"bad vn index", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//x 2 3\n", 4, "bad normal index"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			var pe *format.ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want line %d containing %q", err, tc.line, tc.want)
			}
		})
	}
}

// TestReadFSBadLibrary names the library and its line.
func TestReadFSBadLibrary(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.obj"), []byte("mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.mtl"), []byte("newmtl m\nKd 1 zero 0\n"), 0o644)
	_, _, err := ReadFS(os.DirFS(dir), "a.obj")
	var pe *format.ParseError
	if !errors.As(err, &pe) || pe.File != "a.mtl" || pe.Line != 2 || !strings.Contains(err.Error(), `bad value "zero"`) {
		t.Fatalf("err = %v, want a.mtl line 2", err)
	}
	// Through the registry, the path is the library's beside the file.
	_, _, err = format.ReadRestMesh(filepath.Join(dir, "a.obj"))
	if !errors.As(err, &pe) || pe.File != filepath.Join(dir, "a.mtl") {
		t.Fatalf("err = %v, want the library's path", err)
	}
}

// FuzzReadMTL: a material library never panics, and what it reads has
// finite colours.
func FuzzReadMTL(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "textured", "textured.mtl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("newmtl a\nmap_Kd ../../../etc/passwd\nnewmtl a b\nd -halo 0.3\nTr 0.2\nKe 1 1 1\nmap_Bump -bm 2 ../up.png\nKd spectral x.rfl\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := readMTL(bytes.NewReader(b), "dir")
		if err != nil {
			return
		}
		for _, m := range ms {
			for _, p := range []string{m.mapKd, m.bump, m.mapKe} {
				// The library's folder is "dir" inside the input's: a texture
				// may go up to the input's folder, never above it.
				if p != "" && !fs.ValidPath(p) {
					t.Fatalf("texture %q leaves the input's folder", p)
				}
			}
			if !finite(float64(m.alpha)) || !finite(float64(m.kd[0])) {
				t.Fatalf("non-finite value in %+v", m)
			}
		}
	})
}

// TestReadVertexColors: v x y z r g b gives a colour set per vertex,
// white for a vertex without one; v x y z w is a position only.
func TestReadVertexColors(t *testing.T) {
	m, err := Read(strings.NewReader("v 0 0 0 1\nv 1 0 0 1 0 0\nv 0 1 0\nv 1 1 0 0 0.5 1\nf 1 2 3\nf 2 4 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := m.Surface
	if s == nil || len(s.Colors) != 1 || s.Colors[0].PerCorner() {
		t.Fatalf("surface %+v, want one colour set per vertex", s)
	}
	want := [][4]float32{{1, 1, 1, 1}, {1, 0, 0, 1}, {1, 1, 1, 1}, {0, 0.5, 1, 1}}
	for i, c := range want {
		if s.Colors[0].Values[i] != c {
			t.Errorf("vertex %d: colour %v, want %v", i+1, s.Colors[0].Values[i], c)
		}
	}
	if _, err := Read(strings.NewReader("v 0 0 0 1 x 0\n")); err == nil || !strings.Contains(err.Error(), `bad colour "x"`) {
		t.Fatalf("err = %v", err)
	}
}
