package viewer_test

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"math"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/viewer"
)

// partPoint is a page point inside triangle T of a part (window.meshrig.partPoints).
type partPoint struct {
	X, Y    float64
	Visible bool
	T       int
	Corners [3]point // near each corner: 0.8 of it, 0.1 of the others
}

// partPoints returns, per part of the loaded mesh, points inside its triangles.
func (s *session) partPoints() [][]partPoint {
	s.t.Helper()
	return eval[[][]partPoint](s, `meshrig.partPoints(5000)`)
}

// hideSkeleton unticks the skeleton so only the mesh is drawn.
func (s *session) hideSkeleton() {
	s.t.Helper()
	eval[bool](s, `(() => { const c = document.getElementById('skeleton'); if (c.checked) c.click(); return true; })()`)
	time.Sleep(300 * time.Millisecond) // a frame or two
}

// share returns the fraction of the visible points where ok holds for the
// screenshot's pixel, and how many points were visible.
func share(img image.Image, pts []partPoint, ok func(c [3]uint8) bool) (float64, int) {
	n, hit := 0, 0
	for _, p := range pts {
		x, y := int(p.X), int(p.Y)
		if !p.Visible || !image.Pt(x, y).In(img.Bounds()) {
			continue
		}
		n++
		if ok(rgbAt(img, x, y)) {
			hit++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(hit) / float64(n), n
}

// TestBrowserTwoParts: a rig whose mesh has two parts (two glTF primitives,
// so GLTFLoader makes two SkinnedMeshes over one skeleton, with vertices
// copied at the UV seam between them) is drawn whole: the pixels inside
// both parts' triangles are coloured by dominant joint; in the error mode,
// with the input moved away from the rig on the upper part only, the upper
// part's triangles are red — those at the cut too, whose corners are seam
// copies mapped back to rig vertices by State.copies — and the lower
// part's blue; the input's ghost draws every part's triangles; a joint can
// be picked; the material mode shows each part's own material.
func TestBrowserTwoParts(t *testing.T) {
	r, err := character.Generate(character.Biped, character.Options{Frames: 8, Vertices: 1500})
	if err != nil {
		t.Fatal(err)
	}
	viewer.TwoParts(r)
	m := r.Mesh
	part := m.Surface.TriPart
	n := len(m.Verts)
	upper := make([]bool, n) // used by an upper-part triangle
	lower := make([]bool, n)
	for t, tri := range m.Tris {
		for _, v := range tri {
			if part[t] == 1 {
				upper[v] = true
			} else {
				lower[v] = true
			}
		}
	}
	// The input: the rig's own animation with every vertex of the upper
	// part moved by a tenth of the diagonal, so the error is ~0 below and
	// the largest above.
	in := character.Sequence(r)
	shift := linalg.Vec3{0.1 * mesh.Diagonal(m.Verts), 0, 0}
	for i := range in.Frames {
		if upper[i%n] {
			in.Frames[i] = in.Frames[i].Vec3().Add(shift).Vec3f()
		}
	}
	// The part-local triangle numbers the page reports, as mesh triangles.
	var byPart [2][]int
	for t := range m.Tris {
		byPart[part[t]] = append(byPart[part[t]], t)
	}

	s := open(t, viewer.Options{Rig: r, Input: in, Name: "two-parts.glb"}, "")
	var st viewer.State
	s.api("/api/state", &st)
	if len(st.Copies) == 0 {
		t.Fatal("the state lists no seam copies for the two-part mesh")
	}
	if mode := eval[string](s, `meshrig.state().ui.colorMode`); mode != "joint" {
		t.Errorf("a rig with materials but no texture opens in colour mode %q, want joint", mode)
	}
	s.hideSkeleton()
	pts := s.partPoints()
	if len(pts) != 2 {
		t.Fatalf("the page holds %d parts, want 2", len(pts))
	}
	shot := s.screenshot()
	for p, name := range []string{"lower", "upper"} {
		drawn, k := share(shot, pts[p], func(c [3]uint8) bool { return differs3(c, background, 6) })
		coloured, _ := share(shot, pts[p], func(c [3]uint8) bool { return saturation(c) > 0.25 })
		t.Logf("joint mode, %s part: %d points, %.0f%% drawn, %.0f%% coloured", name, k, 100*drawn, 100*coloured)
		if k < 50 || drawn < 0.9 || coloured < 0.8 {
			t.Errorf("the %s part: %d visible points, %.0f%% drawn, %.0f%% coloured by joint", name, k, 100*drawn, 100*coloured)
		}
	}

	// The error heat map on both parts.
	eval[bool](s, `Promise.resolve(meshrig.seek(0, 3)).then(() => meshrig.setColorMode('error')).then(() => true)`)
	time.Sleep(300 * time.Millisecond)
	shot = s.screenshot()
	pts = s.partPoints() // at frame 3's pose
	red := func(c [3]uint8) bool { return int(c[0]) > int(c[2])+60 && int(c[0]) > int(c[1])+60 }
	blue := func(c [3]uint8) bool { return int(c[2]) > int(c[0])+30 }
	// Points near the cut's vertices inside upper triangles: the writer
	// copied those vertices (State.copies); a copy mapped to no rig vertex
	// would be grey there, or another vertex's colour.
	var cut []partPoint
	for _, pt := range pts[1] {
		for k, v := range m.Tris[byPart[1][pt.T]] {
			if lower[v] {
				c := pt.Corners[k]
				cut = append(cut, partPoint{X: c.X, Y: c.Y, Visible: c.Visible})
			}
		}
	}
	var inner []partPoint // lower triangles off the cut
	for _, pt := range pts[0] {
		if tri := m.Tris[byPart[0][pt.T]]; !upper[tri[0]] && !upper[tri[1]] && !upper[tri[2]] {
			inner = append(inner, pt)
		}
	}
	up, ku := share(shot, pts[1], red)
	upCut, kc := share(shot, cut, red)
	low, kl := share(shot, inner, blue)
	t.Logf("error mode: upper part %.0f%% red (%d points), near the cut's vertices %.0f%% red (%d), lower part off the cut %.0f%% blue (%d)",
		100*up, ku, 100*upCut, kc, 100*low, kl)
	if ku < 50 || up < 0.85 {
		t.Errorf("upper part: %.0f%% of %d points red, want the input's offset shown", 100*up, ku)
	}
	if kc < 50 || upCut < 0.85 {
		t.Errorf("upper part at the cut (seam copies): %.0f%% of %d points red", 100*upCut, kc)
	}
	if kl < 30 || low < 0.85 {
		t.Errorf("lower part: %.0f%% of %d points blue, want ~0 error shown", 100*low, kl)
	}

	// The input's ghost covers every part: all the rig's triangles.
	s.do(chromedp.Click(chromedp.ID("ghost")))
	s.wait("the ghost", fmt.Sprintf(`meshrig.state().ui.ghostTriangles === %d`, len(m.Tris)), 10*time.Second)
	s.do(chromedp.Click(chromedp.ID("ghost")))

	// Picking a joint still works with the parts drawn over it.
	eval[bool](s, `(() => { const c = document.getElementById('skeleton'); if (!c.checked) c.click(); return true; })()`)
	time.Sleep(200 * time.Millisecond)
	j := s.clickJoint(`j.parent >= 0`)
	eval[bool](s, `meshrig.setColorMode('weights').then(() => true)`)
	t.Logf("joint %d picked by a click", j)

	// The material mode: the parts' own materials, red below, blue above.
	eval[bool](s, `meshrig.setColorMode('material').then(() => true)`)
	s.hideSkeleton()
	shot = s.screenshot()
	lr, _ := share(shot, pts[0], red)
	ub, _ := share(shot, pts[1], func(c [3]uint8) bool { return int(c[2]) > int(c[0])+40 })
	t.Logf("material mode: lower part %.0f%% red, upper %.0f%% blue", 100*lr, 100*ub)
	if lr < 0.8 || ub < 0.8 {
		t.Errorf("material mode: lower part %.0f%% red, upper %.0f%% blue; want each part in its material's colour", 100*lr, 100*ub)
	}
}

func differs3(c, ref [3]uint8, tol int) bool {
	for k := range c {
		if d := int(c[k]) - int(ref[k]); d > tol || d < -tol {
			return true
		}
	}
	return false
}

// TestBrowserCesiumManTexture: CesiumMan (its own skin and clip, as
// meshrig reads it) opens in the material mode and shows its texture:
// at points inside its triangles, the drawn colour's chromaticity is the
// texture's at the triangle's centre, much closer than in the joint mode.
func TestBrowserCesiumManTexture(t *testing.T) {
	path := shareddata.Path(t, "gltf/CesiumMan.glb") // skips when absent
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := sc.Rig
	if r == nil || r.Mesh.Surface == nil || len(r.Mesh.Surface.Images) == 0 || len(r.Mesh.Surface.UVs) == 0 {
		t.Fatal("CesiumMan read without its rig, UVs or texture")
	}
	sf := r.Mesh.Surface
	tex, _, err := image.Decode(bytes.NewReader(sf.Images[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, viewer.Options{Rig: r, Name: "CesiumMan.glb", Inputs: []string{path}}, "")
	if mode := eval[string](s, `meshrig.state().ui.colorMode`); mode != "material" {
		t.Errorf("a textured rig opens in colour mode %q, want material", mode)
	}
	s.hideSkeleton()
	pts := s.partPoints()
	if len(pts) != 1 {
		t.Fatalf("the page holds %d parts, want 1", len(pts))
	}
	// The texture's colour at each sampled triangle's centre (glTF UVs:
	// v down from the image's top).
	b := tex.Bounds()
	want := func(tri int) [3]uint8 {
		var u, v float64
		for k, vi := range r.Mesh.Tris[tri] {
			uv := sf.UVs[0].At(tri, k, vi)
			u, v = u+float64(uv[0])/3, v+float64(uv[1])/3
		}
		u, v = u-math.Floor(u), v-math.Floor(v)
		x, y := b.Min.X+int(u*float64(b.Dx())), b.Min.Y+int(v*float64(b.Dy()))
		return rgbAt(tex, min(x, b.Max.X-1), min(y, b.Max.Y-1))
	}
	chromaGap := func(img image.Image) (float64, int) {
		var gaps []float64
		for _, p := range pts[0] {
			x, y := int(p.X), int(p.Y)
			if !p.Visible || !image.Pt(x, y).In(img.Bounds()) {
				continue
			}
			got := rgbAt(img, x, y)
			if !differs3(got, background, 6) {
				continue
			}
			gaps = append(gaps, chromaDist(got, want(p.T)))
		}
		if len(gaps) == 0 {
			return math.Inf(1), 0
		}
		sort.Float64s(gaps)
		return gaps[len(gaps)/2], len(gaps)
	}
	textured, k := chromaGap(s.screenshot())
	eval[bool](s, `meshrig.setColorMode('joint').then(() => true)`)
	time.Sleep(200 * time.Millisecond)
	joints, _ := chromaGap(s.screenshot())
	t.Logf("median chromaticity gap to the texture over %d points: material mode %.3f, joint mode %.3f", k, textured, joints)
	if k < 50 {
		t.Fatalf("only %d of CesiumMan's sampled points are drawn", k)
	}
	if textured > 0.04 || textured > joints/2 {
		t.Errorf("material mode: the drawn colours are %.3f from the texture's chromaticity (joint mode %.3f): the texture is not shown", textured, joints)
	}
}

// chromaDist is the distance between two colours' chromaticities
// (r, g)/(r+g+b): it ignores how brightly each is lit.
func chromaDist(a, b [3]uint8) float64 {
	ch := func(c [3]uint8) (float64, float64) {
		s := float64(c[0]) + float64(c[1]) + float64(c[2]) + 1
		return float64(c[0]) / s, float64(c[1]) / s
	}
	ar, ag := ch(a)
	br, bg := ch(b)
	return math.Hypot(ar-br, ag-bg)
}
