package abc

import (
	"math"
	"os"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
)

const boneAnim = "dembones/Bone_Anim.abc"

// signedVolume is the volume the triangles enclose: positive when they are
// counter-clockwise seen from outside.
func signedVolume(m *mesh.Mesh) float64 {
	v := 0.0
	for _, t := range m.Tris {
		a, b, c := m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]]
		v += a.Dot(b.Cross(c)) / 6
	}
	return v
}

// TestBoneAnim reads Maya's cache through format.ReadScene: one PolyMesh
// under a translating Xform, 754 vertices (752 quads), 400 frames every
// 1/24 s from 1/24 s, finite positions, one component, and the reversed
// winding facing outward in every frame.
func TestBoneAnim(t *testing.T) {
	path := shareddata.Path(t, boneAnim)
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := sc.Sequence
	if s.N() != 754 || s.F() != 400 {
		t.Fatalf("%d vertices, %d frames; want 754 and 400", s.N(), s.F())
	}
	if len(s.Clips) != 1 || s.Clips[0].Name != "Bone_Anim" || math.Abs(s.Clips[0].FPS-24) > 1e-9 {
		t.Errorf("clips %+v, want one, Bone_Anim, at 24 fps", s.Clips)
	}
	if s.Rest.NumPolys() != 752 || len(s.Rest.Tris) != 1504 {
		t.Errorf("%d polygons, %d triangles; want 752 quads as 1504 triangles", s.Rest.NumPolys(), len(s.Rest.Tris))
	}
	if c := mesh.NewTopology(s.Rest).NumComponents; c != 1 {
		t.Errorf("%d components, want 1", c)
	}
	for f := 0; f < s.F(); f++ {
		for i, v := range s.Frame(f) {
			if !v.IsFinite() {
				t.Fatalf("frame %d vertex %d = %v", f+1, i+1, v)
			}
		}
		if f%50 == 0 {
			if vol := signedVolume(s.Rest.WithVerts(s.FrameInto(nil, f))); !(vol > 0) {
				t.Errorf("frame %d: signed volume %v, want positive (outward faces)", f+1, vol)
			}
		}
	}
	if len(sc.Objects) != 2 || sc.Objects[1].Path != "/Bone/BoneShape" || sc.Objects[1].Verts != 754 ||
		sc.Objects[1].Samples != 400 || math.Abs(sc.Objects[1].FPS-24) > 1e-9 || sc.Objects[0].Type != "AbcGeom_Xform_v3" {
		t.Errorf("objects %+v", sc.Objects)
	}

	// The times themselves, and the topology of every sample.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	a, err := Open(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Read(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, tm := range got.Times {
		if want := float64(k+1) / 24; math.Abs(tm-want) > 1e-9 {
			t.Fatalf("frame %d at %v s, want %v", k+1, tm, want)
		}
	}
	m, err := a.PolyMesh(a.Find("/Bone/BoneShape"))
	if err != nil {
		t.Fatal(err)
	}
	if i, what, err := a.Topology(m); err != nil || i >= 0 {
		t.Errorf("topology changes at sample %d (%s, %v)", i, what, err)
	}
}
