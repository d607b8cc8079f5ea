package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// quadTexture is a unit quad facing +Z, textured with a 2×2 image: red and
// green on top, blue and yellow below. UVs follow glTF: v down from the
// image's top.
func quadTexture(t *testing.T) *mesh.Mesh {
	m, err := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, [][]int{{0, 1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	img.Set(1, 0, color.RGBA{0, 255, 0, 255})
	img.Set(0, 1, color.RGBA{0, 0, 255, 255})
	img.Set(1, 1, color.RGBA{255, 255, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	mat := mesh.NewMaterial("tiles")
	mat.BaseColorTexture = &mesh.TextureRef{Scale: 1}
	uv := mesh.Attr[[2]float32]{Values: make([][2]float32, 4)}
	for i, v := range m.Verts {
		uv.Values[i] = [2]float32{float32(v[0]), float32(1 - v[1])}
	}
	m.Surface = &mesh.Surface{
		UVs:       []mesh.Attr[[2]float32]{uv},
		Materials: []mesh.Material{mat},
		Images:    []mesh.Image{{MIMEType: "image/png", Data: buf.Bytes()}},
		Parts:     []mesh.Part{{Material: 0}},
	}
	return m
}

// tile names the texel colour a pixel shows: 'r', 'g', 'b', 'y', or 0.
func tile(c color.RGBA) byte {
	hi := func(v uint8) bool { return v > 60 }
	lo := func(v uint8) bool { return v < 20 }
	switch {
	case hi(c.R) && hi(c.G) && lo(c.B):
		return 'y'
	case hi(c.R) && lo(c.G) && lo(c.B):
		return 'r'
	case lo(c.R) && hi(c.G) && lo(c.B):
		return 'g'
	case lo(c.R) && lo(c.G) && hi(c.B):
		return 'b'
	}
	return 0
}

func TestTextureQuad(t *testing.T) {
	m := quadTexture(t)
	img, err := Mesh(m, nil, nil, Options{Width: 200, Height: 200, View: &View{Azimuth: 0, Elevation: 0, Up: 1}, NoCaption: true})
	if err != nil {
		t.Fatal(err)
	}
	box, n := foreground(img, bg)
	count := map[byte]int{}
	rowSum := map[byte]int{}
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			if k := tile(img.RGBAAt(x, y)); k != 0 {
				count[k]++
				rowSum[k] += y
			}
		}
	}
	for _, k := range []byte("rgby") {
		// Each tile covers a quarter of the quad, less its anti-aliased seams.
		if f := float64(count[k]) / float64(n); f < 0.2 || f > 0.26 {
			t.Errorf("tile %c covers %.3f of the quad, want about 1/4", k, f)
		}
	}
	mid := float64(box.Min.Y+box.Max.Y) / 2
	for _, k := range []byte("rg") {
		if float64(rowSum[k])/float64(count[k]) >= mid {
			t.Errorf("tile %c is drawn below the middle; the texture's top must be up", k)
		}
	}
	for _, k := range []byte("by") {
		if float64(rowSum[k])/float64(count[k]) <= mid {
			t.Errorf("tile %c is drawn above the middle", k)
		}
	}
	// Clay when asked for joints on a plain mesh: no tile colours at all.
	plain, err := Mesh(m, nil, nil, Options{Width: 200, Height: 200, View: &View{Up: 1}, NoCaption: true, Paint: PaintJoints})
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 200; y++ {
		for x := 0; x < 200; x++ {
			if tile(plain.RGBAAt(x, y)) != 0 {
				t.Fatalf("pixel %d,%d shows the texture though joints were asked", x, y)
			}
		}
	}
}

// TestTextureCesiumMan draws the shared CesiumMan rig with its texture and
// by joint: the body's pixels must be the texture's, not the joint palette.
func TestTextureCesiumMan(t *testing.T) {
	sc, err := format.ReadScene(shareddata.Path(t, filepath.Join("gltf", "CesiumMan.glb")), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Width: 300, Height: 300, NoSkeleton: true, NoCaption: true}
	tex, err := Rig(sc.Rig, 0, 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Paint = PaintJoints
	joints, err := Rig(sc.Rig, 0, 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	_, n := foreground(tex, bg)
	differ, textured, jointTextured := 0, 0, 0
	for y := 0; y < 300; y++ {
		for x := 0; x < 300; x++ {
			a, b := tex.RGBAAt(x, y), joints.RGBAAt(x, y)
			if a == bg {
				continue
			}
			if a != b {
				differ++
			}
			// CesiumMan's texture is white, blue and green stripes: greys
			// and those hues, where joint colours are saturated everywhere.
			if k := tile(a); k == 'g' || k == 'b' || grey(a) {
				textured++
			}
			if k := tile(b); k == 'g' || k == 'b' || grey(b) {
				jointTextured++
			}
		}
	}
	if n < 2000 {
		t.Fatalf("only %d body pixels", n)
	}
	if f := float64(differ) / float64(n); f < 0.9 {
		t.Errorf("%.2f of the body's pixels differ from the joint colours, want ≥ 0.9", f)
	}
	ft, fj := float64(textured)/float64(n), float64(jointTextured)/float64(n)
	if ft < 0.5 || ft < 2*fj {
		t.Errorf("%.2f of the body grey, green or blue with the texture, %.2f by joint: the texture does not show", ft, fj)
	}
	t.Logf("%d body pixels, %.2f differ from joint colours; grey, green or blue: %.2f textured, %.2f by joint", n, float64(differ)/float64(n), ft, fj)
}

// grey reports a colour with channels within 12 of each other.
func grey(c color.RGBA) bool {
	lo, hi := min(c.R, c.G, c.B), max(c.R, c.G, c.B)
	return hi-lo < 12
}

// TestVertexColors paints a quad by its vertex colours: red on the left
// edge, blue on the right, blended between.
func TestVertexColors(t *testing.T) {
	m := quadTexture(t)
	m.Surface.Materials, m.Surface.Images, m.Surface.Parts = nil, nil, nil
	red, blue := [4]float32{1, 0, 0, 1}, [4]float32{0, 0, 1, 1}
	m.Surface.Colors = []mesh.Attr[[4]float32]{{Values: [][4]float32{red, blue, blue, red}}}
	img, err := Mesh(m, nil, nil, Options{Width: 200, Height: 200, View: &View{Up: 1}, NoCaption: true})
	if err != nil {
		t.Fatal(err)
	}
	box, _ := foreground(img, bg)
	y := (box.Min.Y + box.Max.Y) / 2
	left, right := img.RGBAAt(box.Min.X+3, y), img.RGBAAt(box.Max.X-4, y)
	// The view may mirror the quad: one side red, the other blue.
	if left.R < right.R {
		left, right = right, left
	}
	if !(left.R > 100 && left.B < 30 && right.B > 100 && right.R < 30) {
		t.Fatalf("sides %v and %v, want red and blue", left, right)
	}
	mid := img.RGBAAt((box.Min.X+box.Max.X)/2, y)
	if !(mid.R > 40 && mid.B > 40) {
		t.Fatalf("middle %v, want a blend of red and blue", mid)
	}
}

// TestTextureTransform: a KHR_texture_transform offset of half the image
// in v swaps the quad's rows of tiles.
func TestTextureTransform(t *testing.T) {
	m := quadTexture(t)
	m.Surface.Materials[0].BaseColorTexture.Transform = &mesh.UVTransform{Offset: [2]float32{0, 0.5}, Scale: [2]float32{1, 1}}
	img, err := Mesh(m, nil, nil, Options{Width: 200, Height: 200, View: &View{Up: 1}, NoCaption: true})
	if err != nil {
		t.Fatal(err)
	}
	box, _ := foreground(img, bg)
	mid := float64(box.Min.Y+box.Max.Y) / 2
	rows := map[byte][2]int{} // sum of rows, count
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			if k := tile(img.RGBAAt(x, y)); k != 0 {
				r := rows[k]
				rows[k] = [2]int{r[0] + y, r[1] + 1}
			}
		}
	}
	for k, above := range map[byte]bool{'r': false, 'g': false, 'b': true, 'y': true} {
		r := rows[k]
		if r[1] == 0 || (float64(r[0])/float64(r[1]) < mid) != above {
			t.Errorf("tile %c: %d pixels, mean row %.1f (middle %.1f); want it %s", k, r[1], float64(r[0])/float64(max(r[1], 1)), mid, map[bool]string{true: "above", false: "below"}[above])
		}
	}
}
