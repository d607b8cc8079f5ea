package gltf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"

	_ "github.com/meshrig/meshrig/format/obj" // the OBJ round trip's input
)

// validateClean runs the Khronos validator on files and fails unless each
// has 0 errors and 0 warnings.
func validateClean(t *testing.T, files ...string) {
	t.Helper()
	root := repoRoot()
	_, err := exec.LookPath("node")
	_, verr := os.Stat(filepath.Join(root, ".ci", "node_modules", "gltf-validator"))
	shareddata.RequireTool(t, err == nil && verr == nil, "node with the npm package gltf-validator in .ci/node_modules")
	out, err := exec.Command("node", append([]string{filepath.Join(root, ".ci", "validate-gltf.mjs")}, files...)...).CombinedOutput()
	t.Logf("validator:\n%s", out)
	if err != nil {
		t.Fatalf("validator reports errors: %v", err)
	}
	for _, f := range files {
		if !strings.Contains(string(out), f+": 0 errors, 0 warnings") {
			t.Fatalf("%s: not 0 errors and 0 warnings", f)
		}
	}
}

// TestSurfaceRoundTrip rigs each shared character with its own skin (the
// file's rig), writes it, reads it back and checks that what the surface
// holds comes back bit for bit, and that the validator finds nothing.
func TestSurfaceRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"CesiumMan.glb", "Fox.glb"} {
		t.Run(name, func(t *testing.T) {
			in, err := format.ReadScene(shareddata.Path(t, filepath.Join("gltf", name)), format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			a := in.Rig.Mesh.Surface
			if a == nil || len(a.UVs) == 0 || len(a.Materials) == 0 || len(a.Images) == 0 || a.Materials[0].BaseColorTexture == nil {
				t.Fatalf("%s read without its UVs, material or texture: %+v", name, a)
			}
			out := filepath.Join(dir, strings.TrimSuffix(name, ".glb")+"-rig.glb")
			if err := format.WriteFile(out, in.Rig, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			back, err := format.ReadScene(out, format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Mesh.Verts) != len(in.Mesh.Verts) {
				t.Fatalf("%d vertices back, %d written", len(back.Mesh.Verts), len(in.Mesh.Verts))
			}
			sameSurface(t, a, back.Mesh.Surface, len(in.Mesh.Verts))
			validateClean(t, out)
		})
	}
}

// sameSurface compares what the glTF writer keeps: UVs, normals (when
// given), colours, materials, image bytes, parts.
func sameSurface(t *testing.T, a, b *mesh.Surface, n int) {
	t.Helper()
	if b == nil {
		t.Fatal("surface lost")
	}
	if len(b.UVs) != len(a.UVs) || len(b.Colors) != len(a.Colors) {
		t.Fatalf("%d UV and %d colour sets back, %d and %d written", len(b.UVs), len(b.Colors), len(a.UVs), len(a.Colors))
	}
	for k := range a.UVs {
		for i := 0; i < n; i++ {
			if a.UVs[k].Values[i] != b.UVs[k].Values[i] {
				t.Fatalf("UV set %d vertex %d: %v back, %v written", k, i, b.UVs[k].Values[i], a.UVs[k].Values[i])
			}
		}
	}
	for k := range a.Colors {
		for i := 0; i < n; i++ {
			if a.Colors[k].Values[i] != b.Colors[k].Values[i] {
				t.Fatalf("colour set %d vertex %d: %v back, %v written", k, i, b.Colors[k].Values[i], a.Colors[k].Values[i])
			}
		}
	}
	if a.Normals != nil {
		for i := 0; i < n; i++ {
			if a.Normals.Values[i] != b.Normals.Values[i] {
				t.Fatalf("normal %d: %v back, %v written", i, b.Normals.Values[i], a.Normals.Values[i])
			}
		}
	}
	if len(a.Materials) != len(b.Materials) || len(a.Images) != len(b.Images) || len(a.Parts) != len(b.Parts) {
		t.Fatalf("materials, images, parts: %d %d %d back, %d %d %d written",
			len(b.Materials), len(b.Images), len(b.Parts), len(a.Materials), len(a.Images), len(a.Parts))
	}
	for k := range a.Materials {
		ma, mb := a.Materials[k], b.Materials[k]
		if ma.Name != mb.Name || ma.BaseColor != mb.BaseColor || ma.Metallic != mb.Metallic || ma.Roughness != mb.Roughness ||
			len(ma.Textures()) != len(mb.Textures()) {
			t.Fatalf("material %d: %+v back, %+v written", k, mb, ma)
		}
		for j, ta := range ma.Textures() {
			if tb := mb.Textures()[j]; !reflect.DeepEqual(ta, tb) {
				t.Fatalf("material %q texture %d: %+v back, %+v written", ma.Name, j, *tb, *ta)
			}
		}
	}
	for k := range a.Images {
		if !bytes.Equal(a.Images[k].Data, b.Images[k].Data) || a.Images[k].MIMEType != b.Images[k].MIMEType {
			t.Fatalf("image %d: %d bytes of %s back, %d of %s written", k, len(b.Images[k].Data), b.Images[k].MIMEType, len(a.Images[k].Data), a.Images[k].MIMEType)
		}
	}
	for k := range a.Parts {
		if a.Parts[k] != b.Parts[k] {
			t.Fatalf("part %d: %+v back, %+v written", k, b.Parts[k], a.Parts[k])
		}
	}
	if fmt.Sprint(a.TriPart) != fmt.Sprint(b.TriPart) {
		t.Fatal("triangles changed parts")
	}
}

// pngPixel is a 1×1 PNG, enough for the validator to accept an image.
var pngPixel = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")

// TestSurfaceCornersSplit writes a tube whose surface has per-corner UVs
// (a seam, as OBJ gives them), two UV sets, colours, per-vertex normals
// and two parts with their own materials: the written file keeps the
// mesh's vertices first, adds one vertex per extra UV combination, and
// reads back with every corner's UV, the parts and the materials.
func TestSurfaceCornersSplit(t *testing.T) {
	r := testrig.Tube(t, 2, linalg.Vec3{})
	m := r.Mesh.Clone()
	r.Mesh = m
	n, nt := len(m.Verts), len(m.Tris)
	// UV set 0 per corner: each triangle its own (u,v) from its index and
	// corner, so every shared vertex is split.
	uv := mesh.Attr[[2]float32]{}
	for t := 0; t < nt; t++ {
		for k := 0; k < 3; k++ {
			uv.Values = append(uv.Values, [2]float32{float32(t) / float32(nt), float32(k) / 3})
			uv.Index = append(uv.Index, int32(3*t+k))
		}
	}
	uv1 := mesh.Attr[[2]float32]{Values: make([][2]float32, n)}
	col := mesh.Attr[[4]float32]{Values: make([][4]float32, n)}
	for i := range uv1.Values {
		uv1.Values[i] = [2]float32{float32(i), 0.5}
		col.Values[i] = [4]float32{float32(i%2) * 0.5, 0.25, 1, 1}
	}
	red, blue := mesh.NewMaterial("red"), mesh.NewMaterial("blue")
	red.BaseColor = [4]float32{1, 0, 0, 1}
	red.BaseColorTexture = &mesh.TextureRef{Image: 0, UVSet: 1, Scale: 1, Sampler: mesh.Sampler{MagFilter: 9728, WrapS: 33071, WrapT: 10497},
		Transform: &mesh.UVTransform{Offset: [2]float32{0.25, 0.5}, Rotation: 0.3926991, Scale: [2]float32{2, 1.5}}}
	tp := make([]int32, nt)
	for k := nt / 2; k < nt; k++ {
		tp[k] = 1
	}
	m.Surface = &mesh.Surface{
		UVs:       []mesh.Attr[[2]float32]{uv, uv1},
		Colors:    []mesh.Attr[[4]float32]{col},
		Materials: []mesh.Material{red, blue},
		Images:    []mesh.Image{{Name: "pixel", MIMEType: "image/png", Data: pngPixel}},
		Parts:     []mesh.Part{{Name: "top", Material: 0}, {Name: "bottom", Material: 1}},
		TriPart:   tp,
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "corners.glb")
	if err := format.WriteFile(out, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := back.Mesh
	if len(b.Verts) != 3*nt {
		t.Fatalf("%d vertices back, want one per corner (%d)", len(b.Verts), 3*nt)
	}
	for i := 0; i < n; i++ {
		if b.Verts[i].Dist(m.Verts[i]) > 1e-6 {
			t.Fatalf("vertex %d moved: the mesh's vertices must come first, in order", i)
		}
	}
	s := b.Surface
	for tr := 0; tr < nt; tr++ {
		for k := 0; k < 3; k++ {
			w, v := b.Tris[tr][k], m.Tris[tr][k]
			if b.Verts[w] != b.Verts[v] && b.Verts[w].Dist(m.Verts[v]) > 1e-6 {
				t.Fatalf("triangle %d corner %d: vertex %v, want a copy of %d", tr, k, b.Verts[w], v)
			}
			if got, want := s.UVs[0].Values[w], uv.At(tr, k, v); got != want {
				t.Fatalf("triangle %d corner %d: UV %v, want %v", tr, k, got, want)
			}
			if got, want := s.UVs[1].Values[w], uv1.Values[v]; got != want {
				t.Fatalf("triangle %d corner %d: UV1 %v, want %v", tr, k, got, want)
			}
			if got, want := s.Colors[0].Values[w], col.Values[v]; got != want {
				t.Fatalf("triangle %d corner %d: colour %v, want %v", tr, k, got, want)
			}
		}
	}
	if len(s.Parts) != 2 || s.Parts[0] != (mesh.Part{Name: "top", Material: 0}) || s.Parts[1] != (mesh.Part{Name: "bottom", Material: 1}) ||
		fmt.Sprint(s.TriPart) != fmt.Sprint(tp) {
		t.Fatalf("parts %+v %v, want two with their materials", s.Parts, s.TriPart)
	}
	if s.Materials[0].Name != "red" || s.Materials[1].Name != "blue" || !reflect.DeepEqual(s.Materials[0].BaseColorTexture, red.BaseColorTexture) ||
		!bytes.Equal(s.Images[0].Data, pngPixel) {
		t.Fatalf("materials %+v", s.Materials)
	}
	// The JSON form embeds the same buffer, images included.
	js := strings.TrimSuffix(out, ".glb") + ".gltf"
	if err := format.WriteFile(js, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	again, err := format.ReadScene(js, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Mesh.Surface.Images[0].Data, pngPixel) || len(again.Mesh.Verts) != len(b.Verts) {
		t.Fatal("the .gltf form lost the image or vertices")
	}
	validateClean(t, out, js)
}

// TestSurfaceFromOBJ reads an OBJ with its material library (per-corner
// UVs and normals with a seam, two materials, a texture), binds it to one
// joint and writes it as glTF: every corner reads back with its UV and
// normal, each material as a primitive with its colour and texture bytes,
// and the validator finds nothing.
func TestSurfaceFromOBJ(t *testing.T) {
	m, side, err := format.ReadRestMesh(filepath.Join("..", "obj", "testdata", "textured", "textured.obj"))
	if err != nil {
		t.Fatal(err)
	}
	if len(side) != 2 {
		t.Fatalf("side files %q, want the library and its texture", side)
	}
	sk := rig.Skeleton{Joints: []rig.Joint{{Name: "root", Parent: rig.NoParent}}}
	skin := make(rig.Skin, len(m.Verts))
	for i := range skin {
		skin[i].Weight[0] = 1
	}
	out := filepath.Join(t.TempDir(), "textured.glb")
	if err := format.WriteFile(out, &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin}, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, a := back.Mesh, m.Surface
	// Vertices 2 and 3 sit on the seam: each is written twice.
	if len(b.Verts) != len(m.Verts)+2 || len(b.Tris) != len(m.Tris) {
		t.Fatalf("%d vertices and %d triangles back, want %d and %d", len(b.Verts), len(b.Tris), len(m.Verts)+2, len(m.Tris))
	}
	s := b.Surface
	for tr := range m.Tris {
		for k := 0; k < 3; k++ {
			w, v := b.Tris[tr][k], m.Tris[tr][k]
			if b.Verts[w].Dist(m.Verts[v]) > 1e-7 {
				t.Fatalf("triangle %d corner %d: at %v, want %v", tr, k, b.Verts[w], m.Verts[v])
			}
			if got, want := s.UVs[0].Values[w], a.UVs[0].At(tr, k, v); got != want {
				t.Fatalf("triangle %d corner %d: UV %v, want %v", tr, k, got, want)
			}
			if got, want := s.Normals.Values[w], a.Normals.At(tr, k, v); got != want {
				t.Fatalf("triangle %d corner %d: normal %v, want %v", tr, k, got, want)
			}
		}
	}
	if len(s.Parts) != 2 || fmt.Sprint(s.TriPart) != fmt.Sprint(a.TriPart) {
		t.Fatalf("parts %+v %v, want %v", s.Parts, s.TriPart, a.TriPart)
	}
	for k := range a.Materials {
		ma, mb := a.Materials[k], s.Materials[s.Parts[k].Material]
		if ma.Name != mb.Name || ma.BaseColor != mb.BaseColor || ma.AlphaMode != mb.AlphaMode || (ma.BaseColorTexture == nil) != (mb.BaseColorTexture == nil) {
			t.Fatalf("material %d: %+v back, %+v written", k, mb, ma)
		}
	}
	tex := s.Images[s.Materials[0].BaseColorTexture.Image].Data
	if !bytes.Equal(tex, a.Images[0].Data) {
		t.Fatal("texture bytes changed")
	}
	validateClean(t, out)
}

// TestWriteRefusesBrokenSurface: a surface that does not fit its mesh is
// refused before anything is written, not indexed out of range.
func TestWriteRefusesBrokenSurface(t *testing.T) {
	r := testrig.Tube(t, 2, linalg.Vec3{})
	r.Mesh = r.Mesh.Clone()
	r.Mesh.Surface = &mesh.Surface{UVs: []mesh.Attr[[2]float32]{{Values: make([][2]float32, 3)}}}
	err := Write(&bytes.Buffer{}, r, format.WriteOptions{})
	if err == nil || !strings.Contains(err.Error(), "mesh surface: UV set 0 has 3 values") {
		t.Fatalf("err = %v, want the surface refused", err)
	}
}

// TestSurfaceImageFiles reads a .gltf whose image is a file beside it: the
// bytes are read and the file listed; an image outside the folder is
// refused, like a buffer.
func TestSurfaceImageFiles(t *testing.T) {
	tri := le(triangle, []float32{0, 0, 1, 0, 0, 1})
	doc := func(uri string) []byte {
		return []byte(bufferJSON("t.bin", len(tri)) +
			`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},` +
			`{"bufferView":0,"byteOffset":36,"componentType":5126,"count":3,"type":"VEC2"}],` +
			`"meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"material":0}]}],"nodes":[{"mesh":0}],` +
			`"materials":[{"name":"m","pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],` +
			`"textures":[{"source":0}],"images":[{"uri":"` + uri + `"}]}`)
	}
	fsys := fstest.MapFS{
		"in/x.gltf":       {Data: doc("tex%20ture.png")},
		"in/t.bin":        {Data: tri},
		"in/tex ture.png": {Data: pngPixel},
		"in/up.gltf":      {Data: doc("../secret.png")},
		"secret.png":      {Data: pngPixel},
	}
	sc, err := ReadScene(fsys, "in/x.gltf", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := sc.Mesh.Surface
	if s == nil || len(s.Images) != 1 || !bytes.Equal(s.Images[0].Data, pngPixel) || s.Images[0].Path != "tex ture.png" || s.Images[0].MIMEType != "image/png" {
		t.Fatalf("image not read: %+v", s)
	}
	if !slices.Contains(sc.Files, "in/tex ture.png") {
		t.Fatalf("files %q do not list the image", sc.Files)
	}
	if _, err := ReadScene(fsys, "in/up.gltf", format.SceneOptions{}); !errors.Is(err, format.ErrOutsideFolder) {
		t.Fatalf("err = %v, want ErrOutsideFolder", err)
	}
	// A missing image keeps its path, without bytes; the file still reads.
	delete(fsys, "in/tex ture.png")
	sc, err = ReadScene(fsys, "in/x.gltf", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if im := sc.Mesh.Surface.Images[0]; im.Path != "tex ture.png" || im.Data != nil {
		t.Fatalf("missing image read as %+v", im)
	}
}

// TestSharedPrimitives reads a mesh split by material into two primitives
// that share every accessor (as exporters write it): one set of vertices,
// two parts with a triangle each; written back, the two primitives share
// the vertices again.
func TestSharedPrimitives(t *testing.T) {
	var seed tinySeed
	for _, s := range tinySeeds() {
		if s.name == "surface.gltf" {
			seed = s
		}
	}
	sc, err := ReadScene(fuzzFS(seed.doc, seed.bin), "x.glb", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := sc.Mesh
	s := m.Surface
	if len(m.Verts) != 3 || len(m.Tris) != 2 || len(s.Parts) != 2 || fmt.Sprint(s.TriPart) != "[0 1]" ||
		s.Parts[0].Material != 0 || s.Parts[1].Material != -1 {
		t.Fatalf("%d vertices, %d triangles, parts %+v %v", len(m.Verts), len(m.Tris), s.Parts, s.TriPart)
	}
	if s.Materials[0].BaseColorTexture.Sampler != (mesh.Sampler{MagFilter: 9729, WrapS: 33071, WrapT: 10497}) {
		t.Fatalf("sampler %+v", s.Materials[0].BaseColorTexture.Sampler)
	}
	sk := rig.Skeleton{Joints: []rig.Joint{{Name: "root", Parent: rig.NoParent}}}
	skin := make(rig.Skin, len(m.Verts))
	for i := range skin {
		skin[i].Weight[0] = 1
	}
	var buf bytes.Buffer
	if err := Write(&buf, &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin}, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadScene(fstest.MapFS{"y.glb": {Data: buf.Bytes()}}, "y.glb", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Mesh.Verts) != 3 || fmt.Sprint(back.Mesh.Surface.TriPart) != "[0 1]" || len(back.Mesh.Surface.Parts) != 2 {
		t.Fatalf("back: %d vertices, parts %+v %v", len(back.Mesh.Verts), back.Mesh.Surface.Parts, back.Mesh.Surface.TriPart)
	}
}

// TestWriteManySets: ten UV and ten colour sets write the first eight of
// each (the interleaved stride stays within glTF's 252 bytes), and the
// validator finds nothing.
func TestWriteManySets(t *testing.T) {
	r := testrig.Tube(t, 2, linalg.Vec3{})
	r.Mesh = r.Mesh.Clone()
	n := len(r.Mesh.Verts)
	s := &mesh.Surface{}
	for k := 0; k < 10; k++ {
		uv := mesh.Attr[[2]float32]{Values: make([][2]float32, n)}
		col := mesh.Attr[[4]float32]{Values: make([][4]float32, n)}
		for i := range uv.Values {
			uv.Values[i] = [2]float32{float32(k), float32(i)}
			col.Values[i] = [4]float32{float32(k) / 10, 0, 0, 1}
		}
		s.UVs, s.Colors = append(s.UVs, uv), append(s.Colors, col)
	}
	r.Mesh.Surface = s
	out := filepath.Join(t.TempDir(), "sets.glb")
	if err := format.WriteFile(out, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := format.ReadScene(out, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := back.Mesh.Surface
	if len(b.UVs) != 8 || len(b.Colors) != 8 || b.UVs[7].Values[3] != s.UVs[7].Values[3] {
		t.Fatalf("%d UV and %d colour sets back", len(b.UVs), len(b.Colors))
	}
	validateClean(t, out)
}
