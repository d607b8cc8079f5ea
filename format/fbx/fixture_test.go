package fbx

import (
	"os"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
)

// TestBlenderFixture reads testdata/blender_two_objects.fbx, which
// Blender 3.4 wrote (testdata/make_blender_fixture.py): two skinned
// objects — a cube on bone "lower" and a sphere on "upper" — each with
// two UV maps and its own material, and "upper" bending 90° about its X
// axis over 10 frames at 24 fps. Blender writes Y up and centimetres, so
// its point (x, y, z) m is our (100x, 100z, −100y): the sphere's centre
// goes from (0, 150, 0) to (0, 100, 50) and the cube's stays at (0, 50, 0).
func TestBlenderFixture(t *testing.T) {
	sc, err := ReadScene(os.DirFS("testdata"), "blender_two_objects.fbx", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := sc.Mesh
	if len(m.Verts) != 34 || m.NumPolys() != 38 {
		t.Fatalf("%d vertices, %d polygons; want 34 (cube 8, sphere 26), 38", len(m.Verts), m.NumPolys())
	}
	s := m.Surface
	if s == nil || len(s.UVs) != 2 || s.UVs[1].Name != "second" || s.Normals == nil || len(s.Materials) != 2 || len(s.Parts) != 2 {
		t.Fatalf("surface: %v", s != nil)
	}
	if s.Materials[0].Name != "red" || s.Materials[0].BaseColor != [4]float32{1, 0, 0, 1} || s.Materials[1].Name != "blue" ||
		s.Parts[0].Name != "cube" || s.Parts[0].Material != 0 || s.Parts[1].Name != "ball" || s.Parts[1].Material != 1 {
		t.Errorf("materials %q %v, parts %+v", s.Materials[0].Name, s.Materials[0].BaseColor, s.Parts)
	}
	r := sc.Rig
	if r == nil || r.Skeleton.Len() != 3 || r.Skeleton.Joints[1].Name != "lower" || r.Skeleton.Joints[2].Name != "upper" {
		t.Fatalf("rig: %+v", r)
	}
	c := sc.Sequence.Clips
	if len(c) != 1 || c[0].Len() != 10 || c[0].FPS != 24 {
		t.Fatalf("clips %+v", c)
	}
	centre := func(f, lo, hi int) linalg.Vec3 {
		var sum linalg.Vec3
		for _, v := range sc.Sequence.FrameInto(nil, f)[lo:hi] {
			sum = sum.Add(v)
		}
		return sum.Scale(1 / float64(hi-lo))
	}
	for _, tc := range []struct {
		f, lo, hi int
		want      linalg.Vec3
	}{{0, 8, 34, linalg.Vec3{0, 150, 0}}, {9, 8, 34, linalg.Vec3{0, 100, 50}}, {9, 0, 8, linalg.Vec3{0, 50, 0}}} {
		if got := centre(tc.f, tc.lo, tc.hi); got.Dist(tc.want) > 1e-3 {
			t.Errorf("frame %d, vertices %d–%d: centre %v, want %v", tc.f+1, tc.lo+1, tc.hi, got, tc.want)
		}
	}
	rep, err := metric.Compare(sc.Sequence, r)
	if err != nil {
		t.Fatal(err)
	}
	if rep.MaxPercent > 1e-4 || !r.Skeletal() {
		t.Errorf("rig replays the file at Max%% %v (skeletal %v)", rep.MaxPercent, r.Skeletal())
	}
}
