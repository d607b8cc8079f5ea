package render

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
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

// keep writes img under $MESHRIG_RENDER_OUT when set, for looking at.
func keep(t *testing.T, name string, img image.Image) {
	dir := os.Getenv("MESHRIG_RENDER_OUT")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := WritePNG(filepath.Join(dir, name), img); err != nil {
		t.Fatal(err)
	}
}

func TestRigPictureIsFramedAndColoured(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	img, err := Rig(r, -1, 0, Options{NoSkeleton: true, NoCaption: true})
	if err != nil {
		t.Fatal(err)
	}
	keep(t, "tube.png", img)
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
	// The 3/4 view puts +x to the right: the left end belongs to the root
	// joint, the right end to the last. Shading scales RGB uniformly, so
	// the hue survives it.
	left := img.RGBAAt(box.Min.X+box.Dx()/12, int(cy))
	right := img.RGBAAt(box.Max.X-box.Dx()/12, int(cy))
	for _, c := range []struct {
		name  string
		px    color.RGBA
		joint int
	}{{"left", left, 0}, {"right", right, 2}} {
		want := hue(JointColor(c.joint))
		got := hue(rgb(c.px))
		if d := math.Abs(math.Remainder(got-want, 360)); d > 8 {
			t.Errorf("%s end %v has hue %.0f°, joint %d's is %.0f°", c.name, c.px, got, c.joint, want)
		}
	}
	if dist(left, right) < 60 {
		t.Errorf("ends coloured alike: %v vs %v", left, right)
	}
}

// hue returns the HSV hue of c in degrees.
func hue(c [3]float64) float64 {
	r, g, b := c[0], c[1], c[2]
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if mx == mn {
		return 0
	}
	var h float64
	switch mx {
	case r:
		h = math.Mod((g-b)/(mx-mn), 6)
	case g:
		h = (b-r)/(mx-mn) + 2
	default:
		h = (r-g)/(mx-mn) + 4
	}
	return math.Mod(60*h+360, 360)
}

func dist(a, b color.RGBA) float64 {
	return math.Abs(float64(a.R)-float64(b.R)) + math.Abs(float64(a.G)-float64(b.G)) + math.Abs(float64(a.B)-float64(b.B))
}

func TestPaletteDistinct(t *testing.T) {
	// Every pair among the first 24 joints differs visibly.
	for i := 0; i < 24; i++ {
		for j := 0; j < i; j++ {
			a, b := JointColor(i), JointColor(j)
			d := math.Abs(a[0]-b[0]) + math.Abs(a[1]-b[1]) + math.Abs(a[2]-b[2])
			if d < 0.05 {
				t.Errorf("joints %d and %d coloured alike: %v %v", i, j, a, b)
			}
		}
	}
	// Neighbours differ strongly.
	for i := 1; i < 24; i++ {
		if d := math.Abs(math.Remainder(hue(JointColor(i))-hue(JointColor(i-1)), 360)); d < 90 {
			t.Errorf("joints %d and %d only %.0f° apart", i-1, i, d)
		}
	}
}

func TestSkeletonOverlayDrawn(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	with, err := Rig(r, 0, 2, Options{NoCaption: true})
	if err != nil {
		t.Fatal(err)
	}
	keep(t, "tube-skeleton.png", with)
	without, _ := Rig(r, 0, 2, Options{NoSkeleton: true, NoCaption: true})
	// The root disc is red and the other joints white: neither colour is
	// in the mesh's palette (saturation 0.55, so the smallest channel of a
	// surface pixel is under 110), nor is the background's grey drawn over
	// by the overlay.
	red, white := 0, 0
	for i := 0; i < len(with.Pix); i += 4 {
		r, g, b := int(with.Pix[i]), int(with.Pix[i+1]), int(with.Pix[i+2])
		if r > 190 && r > g+120 && r > b+120 {
			red++
		}
		if min(r, g, b) > 200 && max(r, g, b)-min(r, g, b) < 45 && !bytes.Equal(with.Pix[i:i+3], without.Pix[i:i+3]) {
			white++
		}
	}
	if red < 50 || white < 50 {
		t.Errorf("joint markers missing: %d red (root), %d white pixels", red, white)
	}
	if bytes.Equal(with.Pix, without.Pix) {
		t.Error("skeleton overlay changed nothing")
	}
	// Only the overlay differs: most pixels agree.
	differ := 0
	for i := 0; i < len(with.Pix); i += 4 {
		if !bytes.Equal(with.Pix[i:i+3], without.Pix[i:i+3]) {
			differ++
		}
	}
	if differ > 800*600/20 {
		t.Errorf("overlay changed %d pixels", differ)
	}
}

func TestCaption(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	with, _ := Rig(r, 0, 1, Options{})
	without, _ := Rig(r, 0, 1, Options{NoCaption: true})
	// The caption sits in the top-left corner and nowhere else.
	inCorner, elsewhere := 0, 0
	for y := 0; y < 600; y++ {
		for x := 0; x < 800; x++ {
			if with.RGBAAt(x, y) != without.RGBAAt(x, y) {
				if y < 26 && x < 400 {
					inCorner++
				} else {
					elsewhere++
				}
			}
		}
	}
	if inCorner < 100 || elsewhere != 0 {
		t.Errorf("caption changed %d corner and %d other pixels", inCorner, elsewhere)
	}
	if got, want := rigCaption(r, 0, 1), `frame 2/4  |  3 joints, 2 bones`; !bytes.Contains([]byte(got), []byte(want)) {
		t.Errorf("caption %q lacks %q", got, want)
	}
}

func TestDeterministicAndViewDependent(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	old := runtime.GOMAXPROCS(1)
	a, _ := Rig(r, 0, 3, Options{})
	runtime.GOMAXPROCS(2)
	b, _ := Rig(r, 0, 3, Options{})
	runtime.GOMAXPROCS(old)
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Error("picture depends on GOMAXPROCS")
	}
	c, _ := Rig(r, 0, 3, Options{View: &View{Azimuth: 90, Elevation: 40, Up: 1}})
	if bytes.Equal(a.Pix, c.Pix) {
		t.Error("another view drew the same picture")
	}
	// Looking straight down the tube (azimuth 90° from the side view)
	// shows a round end; the side view a long tube.
	end, _ := Rig(r, -1, 0, Options{View: &View{Azimuth: 90, Up: 1}, NoSkeleton: true, NoCaption: true})
	side, _ := Rig(r, -1, 0, Options{View: &View{Azimuth: 0, Up: 1}, NoSkeleton: true, NoCaption: true})
	be, _ := foreground(end, bg)
	bs, _ := foreground(side, bg)
	if ar := float64(be.Dx()) / float64(be.Dy()); ar < 0.9 || ar > 1.1 {
		t.Errorf("end view %v is not round", be)
	}
	if ar := float64(bs.Dx()) / float64(bs.Dy()); ar < 5 { // 6 for 3 × 0.5
		t.Errorf("side view %v is not long", bs)
	}
}

func TestTopView(t *testing.T) {
	// Straight down (elevation 90°) still draws the tube, long and thin.
	r := testrig.Tube(t, 4, linalg.Vec3{})
	img, err := Rig(r, -1, 0, Options{View: &View{Elevation: 90, Up: 1}, NoCaption: true, NoSkeleton: true})
	if err != nil {
		t.Fatal(err)
	}
	box, n := foreground(img, bg)
	if n < 800*600/50 || box.Dx() < 4*box.Dy() {
		t.Errorf("top view: %d pixels in %v", n, box)
	}
}

func TestSizeAndBounds(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	img, err := Rig(r, -1, 0, Options{Width: 320, Height: 200, NoCaption: true})
	if err != nil {
		t.Fatal(err)
	}
	if img.Rect.Dx() != 320 || img.Rect.Dy() != 200 {
		t.Fatalf("size %v", img.Rect)
	}
	// Bounds twice as large draw the tube about half as wide.
	lo, hi := mesh.Bounds(r.Mesh.Verts)
	c, e := lo.Add(hi).Scale(0.5), hi.Sub(lo)
	wide := [2]linalg.Vec3{c.Sub(e), c.Add(e)}
	small, err := Rig(r, -1, 0, Options{Width: 320, Height: 200, NoCaption: true, Bounds: &wide})
	if err != nil {
		t.Fatal(err)
	}
	b1, _ := foreground(img, bg)
	b2, _ := foreground(small, bg)
	if ratio := float64(b2.Dx()) / float64(b1.Dx()); ratio < 0.4 || ratio > 0.6 {
		t.Errorf("doubled bounds: width %d → %d", b1.Dx(), b2.Dx())
	}
}

func TestClipBoundsHoldCamera(t *testing.T) {
	// The clip box holds the rest pose and every frame.
	r := testrig.Tube(t, 4, linalg.Vec3{})
	b, err := ClipBounds(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := mesh.Bounds(r.Mesh.Verts)
	for f := 0; f < r.Clips[0].Frames; f++ {
		flo, fhi := mesh.Bounds(r.Frame(nil, 0, f))
		if flo.Min(b[0]) != b[0] || fhi.Max(b[1]) != b[1] {
			t.Errorf("frame %d outside the clip box", f+1)
		}
	}
	if lo.Min(b[0]) != b[0] || hi.Max(b[1]) != b[1] {
		t.Error("rest pose outside the clip box")
	}
	// Every frame drawn in the clip box stays inside the picture.
	opt := Options{Bounds: &b, NoCaption: true, NoSkeleton: true}
	for f := 0; f < r.Clips[0].Frames; f++ {
		img, err := Rig(r, 0, f, opt)
		if err != nil {
			t.Fatal(err)
		}
		if box, _ := foreground(img, bg); box.Min.X <= 0 || box.Min.Y <= 0 || box.Max.X >= 800 || box.Max.Y >= 600 {
			t.Errorf("frame %d drawn in %v", f+1, box)
		}
	}
	if _, err := ClipBounds(r, 5); err == nil {
		t.Error("missing clip accepted")
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
	if _, err := Rig(r, 0, 0, Options{View: &View{Up: 3}}); err == nil {
		t.Error("up axis 3 accepted")
	}
	if _, err := Rig(r, 0, 0, Options{View: &View{Azimuth: math.NaN(), Up: 1}}); err == nil {
		t.Error("NaN azimuth accepted")
	}
	if _, err := Rig(r, 0, 0, Options{Width: 1 << 20}); err == nil {
		t.Error("huge picture accepted")
	}
	if _, err := Rig(r, 0, 0, Options{Bounds: &[2]linalg.Vec3{{1, 1, 1}, {0, 0, 0}}}); err == nil {
		t.Error("inside-out bounds accepted")
	}
	m := r.Mesh
	nan := append([]linalg.Vec3(nil), m.Verts...)
	nan[5][1] = math.NaN()
	if _, err := Mesh(m, nan, nil, Options{}); err == nil {
		t.Error("NaN vertex accepted")
	}
	if _, err := Mesh(m, m.Verts[:10], nil, Options{}); err == nil {
		t.Error("too few positions accepted")
	}
	broken := *m
	broken.Tris = append([][3]int{{0, 1, len(m.Verts)}}, m.Tris...)
	if _, err := Mesh(&broken, nil, nil, Options{}); err == nil {
		t.Error("triangle past the last vertex accepted")
	}
	if _, err := Mesh(nil, nil, nil, Options{}); err == nil {
		t.Error("nil mesh accepted")
	}
}

func TestAutoViewUpAxis(t *testing.T) {
	if v := AutoView(linalg.Vec3{}, linalg.Vec3{1, 2, 0.5}); v.Up != 1 {
		t.Errorf("tall in Y: up %d", v.Up)
	}
	if v := AutoView(linalg.Vec3{-0.3, -0.2, -1}, linalg.Vec3{0.3, 0.2, 1}); v.Up != 1 {
		t.Errorf("tall in Z, centred, not flat: up %d", v.Up)
	}
	if v := AutoView(linalg.Vec3{-0.3, -0.2, 0}, linalg.Vec3{0.3, 0.2, 2}); v.Up != 2 {
		t.Errorf("standing on z = 0: up %d", v.Up)
	}
	if v := AutoView(linalg.Vec3{-0.9, -0.15, -0.9}, linalg.Vec3{0.9, 0.15, 0.9}); v.Up != 2 {
		t.Errorf("T-pose facing -Y: up %d", v.Up)
	}
	// A long, low animal lying along X with Z up is ambiguous by extent
	// alone; it stays Y up (the common convention) unless told.
	if v := AutoView(linalg.Vec3{}, linalg.Vec3{3, 1, 1.2}); v.Up != 1 {
		t.Errorf("ambiguous box: up %d", v.Up)
	}
}

func TestAutoViewRealData(t *testing.T) {
	// Every mesh of the shared data is Y-up; turned Z-up (y → z, z → −y),
	// those standing on the ground must be seen as Z-up.
	for _, name := range []string{
		"sequences/horse-gallop/rest.obj.gz", "sequences/horse-gallop/frame-0001.obj.gz",
		"sequences/cat-poses/rest.obj.gz", "sequences/cat-poses/frame-0001.obj.gz",
		"sequences/lion-poses/rest.obj.gz", "sequences/lion-poses/frame-0004.obj.gz",
		"sequences/lion-poses/frame-0007.obj.gz", "sequences/cow/frame-0001.obj.gz",
		"rigs/elephant/elephant.obj.gz", "rigs/wolf/wolf.obj.gz", "static/armadillo.obj.gz",
	} {
		m, err := format.ReadMesh(shareddata.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := mesh.Bounds(m.Verts)
		grounded := math.Abs(lo[1]) < 0.02*hi.Sub(lo).Norm()
		if v := AutoView(lo, hi); v.Up != 1 {
			t.Errorf("%s: up %d, want 1 (Y)", name, v.Up)
		}
		zup := make([]linalg.Vec3, len(m.Verts))
		for i, p := range m.Verts {
			zup[i] = linalg.Vec3{p[0], -p[2], p[1]}
		}
		lo, hi = mesh.Bounds(zup)
		if v := AutoView(lo, hi); grounded && v.Up != 2 {
			t.Errorf("%s turned Z-up: up %d, want 2 (Z)", name, v.Up)
		}
	}
}

func TestRealMesh(t *testing.T) {
	p := shareddata.Path(t, "sequences/horse-gallop/frame-0001.obj.gz")
	m, err := format.ReadMesh(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := Mesh(m, nil, nil, Options{Caption: "horse-gallop frame 1"})
	if err != nil {
		t.Fatal(err)
	}
	keep(t, "horse.png", img)
	box, n := foreground(img.SubImage(image.Rect(0, 30, 800, 600)).(*image.RGBA), bg) // below the caption
	// Framed: centered, filling much of the frame, not clipped.
	if box.Min.X <= 0 || box.Max.X >= 800 || box.Max.Y >= 600 {
		t.Errorf("horse clipped: %v", box)
	}
	if cx := (box.Min.X + box.Max.X) / 2; cx < 330 || cx > 470 {
		t.Errorf("horse centered at x=%d", cx)
	}
	if w := box.Dx(); w < 240 || w > 760 {
		t.Errorf("horse %d pixels wide", w)
	}
	if n < 800*600/20 {
		t.Errorf("horse covers only %d pixels", n)
	}
}

func TestRealRig(t *testing.T) {
	p := shareddata.Path(t, "gltf/Fox.glb")
	s, err := format.ReadScene(p, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rig == nil || len(s.Rig.Clips) == 0 {
		t.Fatal("Fox.glb has no rig with clips")
	}
	r := s.Rig
	c := len(r.Clips) - 1
	f := r.Clips[c].Frames / 2
	img, err := Rig(r, c, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	keep(t, "fox.png", img)
	box, n := foreground(img, bg)
	if box.Min.X <= 0 || box.Max.X >= 800 || box.Max.Y >= 600 || n < 800*600/20 {
		t.Errorf("fox drawn in %v (%d pixels)", box, n)
	}
}

// sphere returns a UV sphere of about 2·rings·around triangles.
func sphere(rings, around int) *mesh.Mesh {
	var verts []linalg.Vec3
	var polys [][]int
	for r := 0; r <= rings; r++ {
		th := math.Pi * float64(r) / float64(rings)
		for a := 0; a < around; a++ {
			ph := 2 * math.Pi * float64(a) / float64(around)
			verts = append(verts, linalg.Vec3{math.Sin(th) * math.Cos(ph), math.Cos(th), math.Sin(th) * math.Sin(ph)})
		}
	}
	for r := 0; r < rings; r++ {
		for a := 0; a < around; a++ {
			i0, i1 := r*around+a, r*around+(a+1)%around
			polys = append(polys, []int{i0, i1, i1 + around}, []int{i0, i1 + around, i0 + around})
		}
	}
	m, _ := mesh.New(verts, polys)
	return m
}

func BenchmarkRender(b *testing.B) {
	m := sphere(50, 100) // 10,000 triangles
	cols := make([]color.RGBA, len(m.Verts))
	for i, p := range m.Verts {
		c := JointColor(int(2 * (p[0] + 1)))
		cols[i] = color.RGBA{uint8(255 * c[0]), uint8(255 * c[1]), uint8(255 * c[2]), 255}
	}
	b.ReportMetric(float64(len(m.Tris)), "tris")
	for b.Loop() {
		if _, err := Mesh(m, nil, cols, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
