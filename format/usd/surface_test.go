package usd

import (
	"archive/zip"
	"bytes"
	"image"
	"image/color"
	_ "image/jpeg" // CesiumMan's texture
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf" // CesiumMan.glb
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// checkerPNG is a 2×2 PNG.
func checkerPNG(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.White)
	img.Set(1, 1, color.White)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// surfaceRig is the tube (quads) with a surface: UV set 0 per corner
// (a seam: every quad maps the whole image), UV set 1 and normals per
// vertex, a colour set per corner (red and half-transparent green
// quads), a textured skin material on the first half of the quads and
// a translucent cloth on the rest (and the caps).
func surfaceRig(t testing.TB) *rig.Rig {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	m := r.Mesh
	s := &mesh.Surface{}
	uv0 := mesh.Attr[[2]float32]{Name: "TEXCOORD_0", Values: [][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}}}
	uv1 := mesh.Attr[[2]float32]{Values: make([][2]float32, len(m.Verts))}
	nrm := mesh.Attr[[3]float32]{Values: make([][3]float32, len(m.Verts))}
	for i, v := range m.Verts {
		uv1.Values[i] = [2]float32{float32(v[0] / 3), float32(0.1 + 0.8*v[1])}
		n := linalg.Vec3{0, v[1], v[2]}.Unit()
		nrm.Values[i] = [3]float32{float32(n[0]), float32(n[1]), float32(n[2])}
	}
	s.TriPart = make([]int32, len(m.Tris))
	for t, tri := range m.Tris {
		p := m.TriPoly[t]
		poly := m.Poly(p)
		for _, v := range tri {
			k := 0
			for poly[k] != v {
				k++
			}
			uv0.Index = append(uv0.Index, int32(k%4))
		}
		if p >= m.NumPolys()/2 {
			s.TriPart[t] = 1
		}
	}
	s.UVs = []mesh.Attr[[2]float32]{uv0, uv1}
	col := mesh.Attr[[4]float32]{Values: [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 0.5}}, Index: make([]int32, 3*len(m.Tris))}
	for c := range col.Index {
		col.Index[c] = int32(m.TriPoly[c/3] % 2)
	}
	s.Colors = []mesh.Attr[[4]float32]{col}
	s.Normals = &nrm
	skin := mesh.NewMaterial("skin (face)")
	skin.BaseColor = [4]float32{0.9, 0.8, 0.7, 1}
	skin.Metallic, skin.Roughness = 0, 0.6
	skin.BaseColorTexture = &mesh.TextureRef{Image: 0, UVSet: 0, Scale: 1, Sampler: mesh.Sampler{WrapS: 33071}}
	cloth := mesh.NewMaterial("cloth")
	cloth.BaseColor = [4]float32{0.2, 0.3, 0.9, 0.5}
	cloth.AlphaMode = "BLEND"
	cloth.Emissive = [3]float32{0.1, 0, 0}
	s.Materials = []mesh.Material{skin, cloth}
	s.Images = []mesh.Image{{Name: "checker", MIMEType: "image/png", Data: checkerPNG(t), Path: "tex/checker.png"}}
	s.Parts = []mesh.Part{{Name: "face", Material: 0}, {Name: "shirt", Material: 1}}
	m.Surface = s
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}

// sameSurface compares what the writer keeps of a surface: every
// triangle corner's UVs (to float32 through USD's flipped v), colours
// and normals, materials (names, factors, base colour texture and its UV
// set and wrap), image paths (and bytes when withData), parts.
func sameSurface(t *testing.T, a, b *mesh.Surface, m *mesh.Mesh, withData bool) {
	t.Helper()
	if b == nil {
		t.Fatal("surface lost")
	}
	if len(b.UVs) != len(a.UVs) || len(b.Colors) != len(a.Colors) || (a.Normals == nil) != (b.Normals == nil) {
		t.Fatalf("%d UV sets, %d colour sets and normals %v back, %d, %d and %v written", len(b.UVs), len(b.Colors), b.Normals != nil, len(a.UVs), len(a.Colors), a.Normals != nil)
	}
	for tr, tri := range m.Tris {
		for k, v := range tri {
			for s := range a.UVs {
				p, q := a.UVs[s].At(tr, k, v), b.UVs[s].At(tr, k, v)
				for i := range 2 {
					if d := math.Abs(float64(p[i] - q[i])); d > 0x1p-23*math.Max(1, math.Abs(float64(p[i]))) {
						t.Fatalf("UV set %d, triangle %d corner %d: %v back, %v written", s, tr, k, q, p)
					}
				}
				if a.UVs[s].PerCorner() != b.UVs[s].PerCorner() {
					t.Fatalf("UV set %d per corner: %v back, %v written", s, b.UVs[s].PerCorner(), a.UVs[s].PerCorner())
				}
			}
			for s := range a.Colors {
				if p, q := a.Colors[s].At(tr, k, v), b.Colors[s].At(tr, k, v); p != q {
					t.Fatalf("colour set %d, triangle %d corner %d: %v back, %v written", s, tr, k, q, p)
				}
			}
			if a.Normals != nil && a.Normals.At(tr, k, v) != b.Normals.At(tr, k, v) {
				t.Fatalf("normal at triangle %d corner %d: %v back, %v written", tr, k, b.Normals.At(tr, k, v), a.Normals.At(tr, k, v))
			}
		}
	}
	if len(a.Materials) != len(b.Materials) || len(a.Images) != len(b.Images) || len(a.Parts) != len(b.Parts) {
		t.Fatalf("materials, images, parts: %d %d %d back, %d %d %d written",
			len(b.Materials), len(b.Images), len(b.Parts), len(a.Materials), len(a.Images), len(a.Parts))
	}
	for k := range a.Materials {
		ma, mb := a.Materials[k], b.Materials[k]
		ca, cb := ma.BaseColor, mb.BaseColor
		if ma.AlphaMode == "OPAQUE" && ma.BaseColorTexture == nil {
			ca[3], cb[3] = 1, 1
		}
		if ma.Name != mb.Name || ca != cb || ma.Metallic != mb.Metallic || ma.Roughness != mb.Roughness ||
			ma.Emissive != mb.Emissive || ma.AlphaMode != mb.AlphaMode || ma.AlphaCutoff != mb.AlphaCutoff {
			t.Fatalf("material %d: %+v back, %+v written", k, mb, ma)
		}
		ta, tb := ma.BaseColorTexture, mb.BaseColorTexture
		if (ta == nil) != (tb == nil) {
			t.Fatalf("material %q: texture %v back, %v written", ma.Name, tb, ta)
		}
		if ta != nil && (ta.Image != tb.Image || ta.UVSet != tb.UVSet || wrapOf(ta.Sampler.WrapS) != tb.Sampler.WrapS || wrapOf(ta.Sampler.WrapT) != tb.Sampler.WrapT) {
			t.Fatalf("material %q texture: %+v back, %+v written", ma.Name, *tb, *ta)
		}
	}
	for k := range a.Images {
		if withData && !bytes.Equal(a.Images[k].Data, b.Images[k].Data) {
			t.Fatalf("image %d: %d bytes back, %d written", k, len(b.Images[k].Data), len(a.Images[k].Data))
		}
	}
	for k := range a.Parts {
		if a.Parts[k] != b.Parts[k] {
			t.Fatalf("part %d: %+v back, %+v written", k, b.Parts[k], a.Parts[k])
		}
	}
	for tr := range m.Tris {
		if a.Part(tr) != b.Part(tr) {
			t.Fatalf("triangle %d in part %d back, %d written", tr, b.Part(tr), a.Part(tr))
		}
	}
}

// wrapOf is the wrap code that comes back for one written: USD's three
// modes, repeat (glTF's default) as unset.
func wrapOf(code int) int {
	if code == 33071 || code == 33648 {
		return code
	}
	return 0
}

// TestSurfaceRoundTrip writes the surfaced tube as .usda and .usdc (the
// texture by its path) and .usdz (the texture inside) and reads them back: the
// polygons, UVs, normals, materials and parts as written, and the
// package's image bytes.
func TestSurfaceRoundTrip(t *testing.T) {
	r := surfaceRig(t)
	for _, c := range codecs {
		got := writeReadAs(t, r, c)
		if got.Mesh.NumPolys() != r.Mesh.NumPolys() || !slices.Equal(got.Mesh.PolyVerts, r.Mesh.PolyVerts) {
			t.Errorf("%s: %d faces back, %d written: the polygons were not kept", c.name, got.Mesh.NumPolys(), r.Mesh.NumPolys())
		}
		sameSurface(t, r.Mesh.Surface, got.Mesh.Surface, r.Mesh, false)
		if p := got.Mesh.Surface.Images[0].Path; p != "tex/checker.png" {
			t.Errorf("the .%s references the texture as %q, want the input's path", c.name, p)
		}
	}
	var z bytes.Buffer
	if err := WriteUSDZ(&z, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadUSDZ(bytes.NewReader(z.Bytes()), int64(z.Len()))
	if err != nil {
		t.Fatal(err)
	}
	sameSurface(t, r.Mesh.Surface, back.Mesh.Surface, r.Mesh, true)
	if p := back.Mesh.Surface.Images[0].Path; p != "textures/checker.png" {
		t.Errorf("the package holds the texture as %q", p)
	}
}

// TestUSDZLayout checks the package against the USDZ specification: a
// zip whose files are stored uncompressed, each one's data at a
// multiple of 64 bytes, the root layer first.
func TestUSDZLayout(t *testing.T) {
	var b bytes.Buffer
	if err := WriteUSDZ(&b, surfaceRig(t), format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		off, err := f.DataOffset()
		if err != nil {
			t.Fatal(err)
		}
		if f.Method != zip.Store || off%64 != 0 || f.CompressedSize64 != f.UncompressedSize64 {
			t.Errorf("%s: method %d, data at %d (not a multiple of 64 or compressed)", f.Name, f.Method, off)
		}
		data, err := readEntry(f) // checks the CRC
		if err != nil || !bytes.Equal(data, b.Bytes()[off:off+int64(len(data))]) {
			t.Errorf("%s: %v, or its bytes are not where the header says", f.Name, err)
		}
	}
	if strings.Join(names, " ") != "rig.usdc textures/checker.png" {
		t.Errorf("package holds %v, want the layer first and its texture", names)
	}
}

// TestCesiumMan writes CesiumMan's own rig as .usda and .usdz, reads
// both back (UVs, material, the texture's bytes from the package; the
// .usda without the texture, which the .glb embeds), and has TinyUSDZ
// load both and see the mesh, skeleton, animation and material — and in
// the package the texture coordinates and the image, decoded at its size.
func TestCesiumMan(t *testing.T) {
	in, err := format.ReadScene(shareddata.Path(t, filepath.Join("gltf", "CesiumMan.glb")), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := in.Rig
	s := r.Mesh.Surface
	if s == nil || len(s.UVs) == 0 || len(s.Images) == 0 || s.Materials[0].BaseColorTexture == nil {
		t.Fatalf("CesiumMan read without its UVs or texture")
	}
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "cesium.usda"), filepath.Join(dir, "cesium.usdz")}
	for _, f := range files {
		if err := format.WriteFile(f, r, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadUSDZ(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	sameSurface(t, s, back.Mesh.Surface, r.Mesh, true)
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	// The .usda has no file to point to for the texture the .glb
	// embeds: its material keeps its factors only.
	flat := s.Clone()
	flat.Images = nil
	for k := range flat.Materials {
		flat.Materials[k].BaseColorTexture = nil
	}
	sameSurface(t, flat, text.Mesh.Surface, r.Mesh, false)
	seen := tinyUSDZ(t, files...)
	for _, s := range seen {
		checkSeen(t, s, r)
		if len(s.Materials) != 1 || s.Meshes[0].Material != 0 {
			t.Errorf("%s: TinyUSDZ sees materials %+v, the mesh bound to %d", s.File, s.Materials, s.Meshes[0].Material)
		}
	}
	// In the package, TinyUSDZ reads the UVs the texture uses and
	// decodes the image.
	cfg, _, err := image.DecodeConfig(bytes.NewReader(s.Images[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	z := seen[1]
	if z.Meshes[0].Texcoords != len(r.Mesh.Verts) || z.Materials[0].Texture != 0 || len(z.Images) != 1 ||
		!z.Images[0].Decoded || z.Images[0].Width != cfg.Width || z.Images[0].Height != cfg.Height {
		t.Errorf("%s: TinyUSDZ sees %d texture coordinates, materials %+v, images %+v; want %d and the %d×%d image decoded",
			z.File, z.Meshes[0].Texcoords, z.Materials, z.Images, len(r.Mesh.Verts), cfg.Width, cfg.Height)
	}
}

// TestTrianglesWhenCornersDisagree colours the tube's triangles apart
// within each quad: a quad's face-vertex cannot hold two colours, so the
// mesh is written as triangles, and the colours come back exactly.
func TestTrianglesWhenCornersDisagree(t *testing.T) {
	r := surfaceRig(t)
	col := &r.Mesh.Surface.Colors[0]
	for c := range col.Index {
		col.Index[c] = int32(c / 3 % 2)
	}
	for _, c := range codecs {
		got := writeReadAs(t, r, c)
		if got.Mesh.PolyStart != nil || len(got.Mesh.Tris) != len(r.Mesh.Tris) {
			t.Fatalf("%s: written as %d faces, want the %d triangles", c.name, got.Mesh.NumPolys(), len(r.Mesh.Tris))
		}
		sameSurface(t, r.Mesh.Surface, got.Mesh.Surface, r.Mesh, false)
	}
}
