package fbx

import (
	"math"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

func readTiny(t *testing.T, doc *Document, zlibFrom int, opt format.SceneOptions) *format.Scene {
	t.Helper()
	fsys := fstest.MapFS{"tiny.fbx": {Data: encode(doc, zlibFrom)}}
	sc, err := ReadScene(fsys, "tiny.fbx", opt)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestTinyRigKnownAnswer: the hand-made rig's mesh, skeleton, weights and
// motion, with answers worked out by hand.
func TestTinyRigKnownAnswer(t *testing.T) {
	for _, v := range []int{7400, 7500} {
		for _, z := range []int{0, 1} {
			sc := readTiny(t, tinyRig(v), z, format.SceneOptions{})
			m := sc.Mesh
			if len(m.Verts) != 5 || m.NumPolys() != 2 || len(m.Tris) != 3 {
				t.Fatalf("v%d: %d vertices, %d polygons, %d triangles; want 5, 2, 3", v, len(m.Verts), m.NumPolys(), len(m.Tris))
			}
			if got := m.Poly(0); len(got) != 4 || got[0] != 0 || got[1] != 1 || got[2] != 3 || got[3] != 4 {
				t.Errorf("polygon 1 = %v, want [0 1 3 4]", got)
			}
			s := sc.Sequence
			if s.F() != 31 || len(s.Clips) != 1 || s.Clips[0].Name != "wave" || s.Clips[0].FPS != 30 {
				t.Fatalf("sequence: %d frames, clips %+v; want 31 frames of wave at 30 fps", s.F(), s.Clips)
			}
			// The arm turns 90° about Z around (1,0,0): (2,0,0) → (1,1,0),
			// (2,1,0) → (0,1,0); the shared vertex 1 sits on the pivot.
			last := s.FrameInto(nil, 30)
			want := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 1, 0}}
			for i := range want {
				if last[i].Dist(want[i]) > 1e-6 { // float32 frames
					t.Errorf("v%d frame 31 vertex %d = %v, want %v", v, i, last[i], want[i])
				}
			}
			// Linear keys: 45° at frame 16.
			h := math.Sqrt2 / 2
			if got := s.FrameInto(nil, 15)[2]; got.Dist(linalg.Vec3{1 + h, h, 0}) > 1e-6 { // float32 frames
				t.Errorf("frame 16 vertex 2 = %v, want (1+√½, √½, 0)", got)
			}
			r := sc.Rig
			if r == nil {
				t.Fatal("no rig")
			}
			if r.Skeleton.Len() != 2 || r.Skeleton.Joints[0].Name != "hip" || r.Skeleton.Joints[1].Name != "arm" ||
				r.Skeleton.Joints[1].Head != (linalg.Vec3{1, 0, 0}) {
				t.Errorf("skeleton %+v", r.Skeleton.Joints)
			}
			if in := r.Skin[1]; math.Abs(in.Weight[0]-0.5) > 1e-15 || math.Abs(in.Weight[1]-0.5) > 1e-15 {
				t.Errorf("vertex 1 influence %+v, want half and half", in)
			}
			rep, err := metric.Compare(s, r)
			if err != nil {
				t.Fatal(err)
			}
			if rep.MaxPercent > 1e-5 { // the playback's float32 rounding
				t.Errorf("the rig replays the file's playback with Max%% %v", rep.MaxPercent)
			}
			if !r.Skeletal() {
				t.Error("a rotating arm on a still hip is not skeletal")
			}
		}
	}
}

// TestTinyRigOptions: rate, frames and clip choice.
func TestTinyRigOptions(t *testing.T) {
	sc := readTiny(t, tinyRig(7400), 0, format.SceneOptions{FPS: 4})
	if sc.Sequence.F() != 5 || sc.Rig.Clips[0].Frames != 5 {
		t.Errorf("at 4 fps: %d frames, want 5", sc.Sequence.F())
	}
	sc = readTiny(t, tinyRig(7400), 0, format.SceneOptions{FPS: 2.5})
	// 1 s at 2.5 fps: ⌈2.5⌉ = 3 steps, at 3 fps so the last key is a frame.
	if sc.Sequence.F() != 4 || sc.Sequence.Clips[0].FPS != 3 {
		t.Errorf("at 2.5 fps: %d frames at %v fps, want 4 at 3", sc.Sequence.F(), sc.Sequence.Clips[0].FPS)
	}
	sc = readTiny(t, tinyRig(7400), 0, format.SceneOptions{Frames: format.FrameRange{First: 31, Last: 40}})
	if sc.Sequence.F() != 1 || sc.Sequence.FrameInto(nil, 0)[2].Dist(linalg.Vec3{1, 1, 0}) > 1e-12 {
		t.Errorf("frames 31: %d frames", sc.Sequence.F())
	}
	fsys := fstest.MapFS{"tiny.fbx": {Data: encode(tinyRig(7400), 0)}}
	if _, err := ReadScene(fsys, "tiny.fbx", format.SceneOptions{Clip: "run"}); err == nil {
		t.Error("a clip the file lacks was read")
	}
	if _, err := ReadScene(fsys, "tiny.fbx", format.SceneOptions{FPS: -1}); err == nil {
		t.Error("a negative rate was taken")
	}
}

// TestTinyGeometryLayers: the UV layer is read with its indices.
func TestTinyGeometryLayers(t *testing.T) {
	f, err := ReadFile(encode(tinyRig(7500), 4))
	if err != nil {
		t.Fatal(err)
	}
	g, err := readGeometry(f.Object(10))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.UVs) != 1 || g.UVs[0].Name != "map1" || g.UVs[0].Mapping != "ByPolygonVertex" || len(g.UVs[0].Index) != 7 || g.UVs[0].Item(2) != 2 {
		t.Errorf("UV layers %+v", g.UVs)
	}
	if f.Settings.FPS != 30 || f.Settings.UpAxis != 1 {
		t.Errorf("settings %+v", f.Settings)
	}
}
