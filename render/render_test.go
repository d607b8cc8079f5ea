package render

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// foreground returns the bounding box and count of pixels that differ
// from the background.
func foreground(img *image.RGBA, bg color.RGBA) (image.Rectangle, int) {
	box := image.Rectangle{Min: img.Rect.Max, Max: img.Rect.Min}
	n := 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.RGBAAt(x, y) != bg {
				n++
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box, n
}

var bg = color.RGBA{238, 238, 242, 255}

func TestRigPictureIsFramedAndColoured(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	img, err := Rig(r, -1, 0, Options{NoSkeleton: true})
	if err != nil {
		t.Fatal(err)
	}
	box, n := foreground(img, bg)
	if n < 800*600/50 || n > 800*600*9/10 {
		t.Fatalf("%d foreground pixels", n)
	}
	// Centered, filling a good part of the width (the tube is long).
	cx := float64(box.Min.X+box.Max.X) / 2
	cy := float64(box.Min.Y+box.Max.Y) / 2
	if math.Abs(cx-400) > 40 || math.Abs(cy-300) > 40 {
		t.Errorf("picture centered at (%.0f, %.0f)", cx, cy)
	}
	if w := box.Dx(); w < 400 || w > 760 {
		t.Errorf("picture %d pixels wide", w)
	}
	// The tube's ends belong to different joints: different hues.
	left := img.RGBAAt(box.Min.X+box.Dx()/12, int(cy))
	right := img.RGBAAt(box.Max.X-box.Dx()/12, int(cy))
	if dist(left, right) < 60 {
		t.Errorf("ends coloured alike: %v vs %v", left, right)
	}
}

func dist(a, b color.RGBA) float64 {
	return math.Abs(float64(a.R)-float64(b.R)) + math.Abs(float64(a.G)-float64(b.G)) + math.Abs(float64(a.B)-float64(b.B))
}

func TestSkeletonOverlayDrawn(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	with, err := Rig(r, 0, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	without, _ := Rig(r, 0, 2, Options{NoSkeleton: true})
	// The root disc is red: somewhere the overlay is strongly red.
	red := 0
	for i := 0; i < len(with.Pix); i += 4 {
		r, g, b := int(with.Pix[i]), int(with.Pix[i+1]), int(with.Pix[i+2])
		if r > g+60 && r > b+60 {
			red++
		}
	}
	if red < 20 {
		t.Errorf("no root marker (%d red pixels)", red)
	}
	if bytes.Equal(with.Pix, without.Pix) {
		t.Error("skeleton overlay changed nothing")
	}
}

func TestDeterministicAndViewDependent(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	old := runtime.GOMAXPROCS(1)
	a, _ := Rig(r, 0, 3, Options{})
	runtime.GOMAXPROCS(4)
	b, _ := Rig(r, 0, 3, Options{})
	runtime.GOMAXPROCS(old)
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Error("picture depends on GOMAXPROCS")
	}
	c, _ := Rig(r, 0, 3, Options{View: &View{Azimuth: 90, Elevation: 40, Up: 1}})
	if bytes.Equal(a.Pix, c.Pix) {
		t.Error("another view drew the same picture")
	}
}

func TestErrors(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	if _, err := Rig(r, 0, 9, Options{}); err == nil {
		t.Error("frame out of range accepted")
	}
	bad := *r
	bad.Skin = append(rig.Skin(nil), r.Skin[:3]...)
	if _, err := Rig(&bad, 0, 0, Options{}); err == nil {
		t.Error("invalid rig accepted")
	}
}

func TestAutoViewUpAxis(t *testing.T) {
	if v := AutoView(linalg.Vec3{}, linalg.Vec3{1, 2, 0.5}); v.Up != 1 {
		t.Errorf("tall in Y: up %d", v.Up)
	}
	if v := AutoView(linalg.Vec3{}, linalg.Vec3{0.5, 0.4, 2}); v.Up != 2 {
		t.Errorf("tall in Z: up %d", v.Up)
	}
}

func TestRealMesh(t *testing.T) {
	p := shareddata.Path(t, "sequences/horse-gallop/rest.obj.gz")
	m, err := format.ReadMesh(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := Mesh(m, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	box, _ := foreground(img, bg)
	// Framed: centered, filling most of the height, not clipped.
	if box.Dy() < 240 || box.Dy() > 580 || box.Min.X <= 0 || box.Max.X >= 800 {
		t.Errorf("horse drawn in %v", box)
	}
	if cx := (box.Min.X + box.Max.X) / 2; cx < 300 || cx > 500 {
		t.Errorf("horse centered at x=%d", cx)
	}
	if err := WritePNG(filepath.Join(t.TempDir(), "horse.png"), img); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkRender(b *testing.B) {
	r := testrig.Tube(b, 4, linalg.Vec3{})
	for b.Loop() {
		if _, err := Rig(r, 0, 1, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
