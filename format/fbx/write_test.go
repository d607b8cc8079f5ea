package fbx

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// roundTrip writes r and reads it back.
func roundTrip(t *testing.T, r *rig.Rig, version string) (*format.Scene, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r, format.WriteOptions{Version: version}); err != nil {
		t.Fatal(err)
	}
	sc, err := ReadScene(fstest.MapFS{"r.fbx": {Data: buf.Bytes()}}, "r.fbx", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return sc, buf.Bytes()
}

// TestWriteRoundTrip: a rig written and read back has the same mesh,
// skeleton and weights, and its playback is the rig's within float32
// keys.
func TestWriteRoundTrip(t *testing.T) {
	for _, version := range []string{"", "7.5"} {
		r := testrig.Tube(t, 24, [3]float64{0.3, -0.2, 0.1})
		sc, data := roundTrip(t, r, version)
		if !bytes.HasSuffix(data, footerEnd) {
			t.Error("no footer")
		}
		back := sc.Rig
		if back == nil {
			t.Fatal("no rig read back")
		}
		if len(back.Mesh.Verts) != len(r.Mesh.Verts) || back.Mesh.NumPolys() != r.Mesh.NumPolys() {
			t.Fatalf("mesh: %d vertices %d polygons, want %d %d", len(back.Mesh.Verts), back.Mesh.NumPolys(), len(r.Mesh.Verts), r.Mesh.NumPolys())
		}
		for i, v := range r.Mesh.Verts {
			if back.Mesh.Verts[i] != v {
				t.Fatalf("vertex %d: %v, want %v", i, back.Mesh.Verts[i], v)
			}
		}
		byName := map[string]int{}
		for j, jt := range back.Skeleton.Joints {
			byName[jt.Name] = j
		}
		for j, jt := range r.Skeleton.Joints {
			k, ok := byName[jt.Name]
			if !ok {
				t.Fatalf("joint %q lost", jt.Name)
			}
			got := back.Skeleton.Joints[k]
			if got.Head != jt.Head {
				t.Errorf("joint %q head %v, want %v", jt.Name, got.Head, jt.Head)
			}
			if jt.Parent != rig.NoParent && back.Skeleton.Joints[got.Parent].Name != r.Skeleton.Joints[jt.Parent].Name {
				t.Errorf("joint %q parent changed", jt.Name)
			}
			_ = j
		}
		if len(back.Clips) != len(r.Clips) || back.Clips[0].Frames != r.Clips[0].Frames || back.Clips[0].FPS != r.Clips[0].FPS {
			t.Fatalf("clips %d (%d frames at %v), want %d (%d at %v)", len(back.Clips), back.Clips[0].Frames, back.Clips[0].FPS,
				len(r.Clips), r.Clips[0].Frames, r.Clips[0].FPS)
		}
		rep := playsAsWritten(t, r, sc)
		t.Logf("version %q: %d bytes, playback Max%% %.2g", version, len(data), rep.MaxPercent)
	}
}

// TestWriteTwoClips: each clip is its own stack, at its own rate, read
// back in order with its frames.
func TestWriteTwoClips(t *testing.T) {
	r := testrig.Tube(t, 10, [3]float64{})
	second := r.Clips[0]
	second.Name, second.FPS = "slow", 24
	r.Clips = append(r.Clips, second)
	sc, _ := roundTrip(t, r, "")
	s := sc.Sequence
	if len(s.Clips) != 2 || s.Clips[0].Name != r.Clips[0].Name || s.Clips[1].Name != "slow" || s.Clips[1].Len() != 10 {
		t.Fatalf("clips %+v", s.Clips)
	}
	// The file's rate is the first clip's; a clip at another rate is
	// sampled at it from its own keys (24 fps keys at a 30 fps file rate
	// give 9 steps at 30 fps over 0.375 s, and the rate rises to 24).
	if s.Clips[1].FPS != 24 {
		t.Errorf("second clip at %v fps, want 24", s.Clips[1].FPS)
	}
	want := testrig.Play(t, r)
	rep, err := metric.ComparePlayback(want, s)
	if err != nil {
		t.Fatal(err)
	}
	if rep.MaxPercent > 1e-4 {
		t.Errorf("two clips read back: Max%% %v", rep.MaxPercent)
	}
}

// withSurface gives r's mesh a surface: UV sets (one per vertex, one per
// corner), normals per corner, two materials over two parts (odd and even
// polygons). A polygon corner holds one value, so per-corner values depend
// on the polygon and the vertex.
func withSurface(t *testing.T, r *rig.Rig) *mesh.Surface {
	t.Helper()
	m := r.Mesh
	nt := len(m.Tris)
	s := &mesh.Surface{}
	perVertex := mesh.Attr[[2]float32]{Name: "map1"}
	for i, v := range m.Verts {
		perVertex.Values = append(perVertex.Values, [2]float32{float32(v[0] / 3), float32(i%7) / 7})
	}
	perCorner := mesh.Attr[[2]float32]{Name: "detail", Values: [][2]float32{{0, 0}, {0.25, 0.5}, {1, 0.75}}}
	normals := mesh.Attr[[3]float32]{Values: [][3]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.6, 0.8, 0}}}
	s.TriPart = make([]int32, nt)
	// A polygon corner holds one value: per-corner values depend on the
	// polygon and the vertex.
	for tri := 0; tri < nt; tri++ {
		poly := tri
		if m.TriPoly != nil {
			poly = m.TriPoly[tri]
		}
		for k := 0; k < 3; k++ {
			key := 31*poly + m.Tris[tri][k]
			perCorner.Index = append(perCorner.Index, int32(key%3))
			normals.Index = append(normals.Index, int32(key%4))
		}
		if poly%2 == 1 {
			s.TriPart[tri] = 1
		}
	}
	s.UVs = []mesh.Attr[[2]float32]{perVertex, perCorner}
	s.Normals = &normals
	red, blue := mesh.NewMaterial("red"), mesh.NewMaterial("blue")
	red.BaseColor = [4]float32{1, 0, 0, 1}
	blue.BaseColor = [4]float32{0, 0, 1, 1}
	red.BaseColorTexture = &mesh.TextureRef{Image: 0, UVSet: 1, Scale: 1}
	s.Images = []mesh.Image{{Name: "checker", MIMEType: "image/png", Data: tinyPNG(t)}}
	s.Materials = []mesh.Material{red, blue}
	s.Parts = []mesh.Part{{Name: "a", Material: 0}, {Name: "b", Material: 1}}
	m.Surface = s
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWriteSurface: UV sets (one per vertex, one per corner), normals per
// corner, two materials over two parts come back from the file at every
// triangle corner.
func TestWriteSurface(t *testing.T) {
	r := testrig.Tube(t, 4, [3]float64{})
	s := withSurface(t, r)
	m := r.Mesh
	nt := len(m.Tris)
	sc, _ := roundTrip(t, r, "")
	got := sc.Mesh.Surface
	if got == nil || len(got.UVs) != 2 || got.Normals == nil || len(got.Materials) != 2 {
		t.Fatalf("surface read back: %+v", got)
	}
	if got.UVs[0].Name != "map1" || got.UVs[1].Name != "detail" || got.Materials[0].Name != "red" || got.Materials[1].BaseColor != s.Materials[1].BaseColor {
		t.Errorf("names or colours: %q %q %+v", got.UVs[0].Name, got.UVs[1].Name, got.Materials)
	}
	if len(got.Images) != 1 || !bytes.Equal(got.Images[0].Data, s.Images[0].Data) || got.Images[0].MIMEType != "image/png" ||
		got.Materials[0].BaseColorTexture == nil || got.Materials[0].BaseColorTexture.UVSet != 1 || got.Materials[1].BaseColorTexture != nil {
		t.Errorf("texture read back: images %+v, materials %+v", got.Images, got.Materials)
	}
	if len(sc.Mesh.Tris) != nt || sc.Mesh.NumPolys() != m.NumPolys() {
		t.Fatalf("%d triangles read back, want %d", len(sc.Mesh.Tris), nt)
	}
	near := func(a, b []float32) bool {
		for i := range a {
			if d := a[i] - b[i]; d > 1e-6 || d < -1e-6 {
				return false
			}
		}
		return true
	}
	for tri := 0; tri < nt; tri++ {
		for k := 0; k < 3; k++ {
			v := m.Tris[tri][k]
			if sc.Mesh.Tris[tri][k] != v {
				t.Fatalf("triangle %d differs", tri)
			}
			for set := 0; set < 2; set++ {
				a, b := s.UVs[set].At(tri, k, v), got.UVs[set].At(tri, k, v)
				if !near(a[:], b[:]) {
					t.Fatalf("UV set %d triangle %d corner %d: %v, want %v", set, tri, k, b, a)
				}
			}
			a, b := s.Normals.At(tri, k, v), got.Normals.At(tri, k, v)
			if !near(a[:], b[:]) {
				t.Fatalf("normal at triangle %d corner %d: %v, want %v", tri, k, b, a)
			}
		}
		if want := s.Parts[s.Part(tri)].Material; got.Parts[got.Part(tri)].Material != want {
			t.Fatalf("triangle %d: material %d, want %d", tri, got.Parts[got.Part(tri)].Material, want)
		}
	}
}

// tinyPNG is a 2×2 checker image.
func tinyPNG(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.White)
	img.Set(1, 1, color.White)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// squashTube is testrig's tube whose middle joint also scales, per frame
// and non-uniformly (a clip of meshrig rig --stretch).
func squashTube(t *testing.T) *rig.Rig {
	return testrig.SquashTube(t, 24, [3]float64{0.3, -0.2, 0.1}, testrig.KeepArea)
}

// TestWriteScaleTracks: a rig with scale tracks is written with them (Lcl
// Scaling curves) and read back plays the same, to float32 keys, both as
// the file's playback and as the rig read back.
func TestWriteScaleTracks(t *testing.T) {
	r := squashTube(t)
	sc, _ := roundTrip(t, r, "")
	if sc.Rig == nil || !sc.Rig.HasScale() {
		t.Fatal("the rig read back has no scale tracks")
	}
	playsAsWritten(t, r, sc)
}

// playsAsWritten checks that the file read back, sc, plays r to float32
// keys (Max% 1e-4), as the file's own playback and as the rig read back,
// and returns the rig's comparison.
func playsAsWritten(t *testing.T, r *rig.Rig, sc *format.Scene) metric.Report {
	t.Helper()
	want := testrig.Play(t, r)
	rep, err := metric.ComparePlayback(want, sc.Sequence)
	if err != nil {
		t.Fatal(err)
	}
	if rep.MaxPercent > 1e-4 {
		t.Errorf("playback of the file read back: Max%% %v", rep.MaxPercent)
	}
	rep, err = metric.Compare(want, sc.Rig)
	if err != nil {
		t.Fatal(err)
	}
	if rep.MaxPercent > 1e-4 {
		t.Errorf("rig read back: Max%% %v", rep.MaxPercent)
	}
	return rep
}
