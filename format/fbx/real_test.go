package fbx

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/seq"
)

// TestRealFiles reads Dem Bones' Maya / FBX SDK files: the rest mesh
// (754 vertices, 752 quads), the skeleton the clusters bind, weights that
// sum to 1, and clips of 400 frames at 24 fps (TimeMode 11). maxRig bounds
// how far the four-influence rig strays from the file's own playback with
// every influence (Max% of d): the playback's float32 rounding (1e-5) for
// files with at most four influences per vertex.
func TestRealFiles(t *testing.T) {
	type want struct {
		joints []string // in skeleton order; nil: no rig
		clips  []string
		maxRig float64
	}
	free := func(n int) []string {
		out := []string{"root"}
		for k := 0; k < n; k++ {
			out = append(out, fmt.Sprintf("joint%d", k))
		}
		return out
	}
	maya := []string{"root", "joint4", "joint1", "joint5", "joint6", "joint3", "joint2"}
	for _, tc := range []struct {
		file string
		want want
	}{
		{"Bone_Geom.fbx", want{nil, nil, 0}},
		{"Bone_Trans.fbx", want{nil, []string{"Take 001"}, 0}},
		{"Bone_Skin.fbx", want{[]string{"root", "joint4", "joint1", "joint6", "joint5", "joint2", "joint3"}, nil, 1e-9}},
		{"Bone_All.fbx", want{maya, []string{"Take 001"}, 1e-5}},
		{"Decomposition_05.fbx", want{free(5), []string{"demBones"}, 1e-5}},
		{"Decomposition_10.fbx", want{free(10), []string{"demBones"}, 1.5}},
		{"Decomposition_20.fbx", want{free(20), []string{"demBones"}, 1}},
		{"Optimized.fbx", want{maya, []string{"Take 001", "demBones"}, 1e-5}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := shareddata.Path(t, filepath.Join("dembones", tc.file))
			sc, err := format.ReadScene(path, format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m := sc.Mesh
			if len(m.Verts) != 754 || m.NumPolys() != 752 || len(m.Tris) != 1504 {
				t.Errorf("%d vertices, %d polygons, %d triangles; want 754, 752, 1504", len(m.Verts), m.NumPolys(), len(m.Tris))
			}
			s := sc.Sequence
			if tc.want.clips == nil {
				if s != nil {
					t.Fatalf("a file without animation read as %d frames", s.F())
				}
			} else if err := s.Validate(); err != nil {
				t.Fatal(err)
			} else if len(s.Clips) != len(tc.want.clips) {
				t.Fatalf("clips %+v, want %q", s.Clips, tc.want.clips)
			}
			for k := 0; s != nil && k < len(s.Clips); k++ {
				c, frames := s.Clips[k], 400
				if c.Name != tc.want.clips[k] || c.Len() != frames || c.FPS != 24 {
					t.Errorf("clip %+v, want %q: %d frames at 24 fps", c, tc.want.clips[k], frames)
				}
			}
			if tc.want.joints == nil {
				if sc.Rig != nil {
					t.Errorf("a rig of %d joints from a file without a skin", sc.Rig.Skeleton.Len())
				}
				return
			}
			r := sc.Rig
			if r == nil {
				t.Fatal("no rig")
			}
			if err := r.Validate(); err != nil { // weights sum to 1, ≤4 influences
				t.Fatal(err)
			}
			var names []string
			for _, j := range r.Skeleton.Joints {
				names = append(names, j.Name)
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.want.joints) {
				t.Errorf("joints %q, want %q", names, tc.want.joints)
			}
			if s == nil {
				if len(r.Clips) != 0 || len(r.Skin) != len(m.Verts) {
					t.Errorf("a rig without animation has %d clips and %d skinned vertices", len(r.Clips), len(r.Skin))
				}
				return
			}
			rep, err := metric.Compare(s, r)
			if err != nil {
				t.Fatal(err)
			}
			if rep.MaxPercent > tc.want.maxRig {
				t.Errorf("the rig strays from the file's playback by Max%% %v, more than %v", rep.MaxPercent, tc.want.maxRig)
			}
			t.Logf("rig vs playback: RMSE%% %.4f Max%% %.4f", rep.RMSEPercent, rep.MaxPercent)
		})
	}
}

// TestRealRestMesh: the Mesh reader (for --rest) gives Bone_Geom's bind
// pose, which is the skinned files' rest mesh too.
func TestRealRestMesh(t *testing.T) {
	path := shareddata.Path(t, "dembones/Bone_Geom.fbx")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	geom, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{"Bone_Skin.fbx", "Decomposition_20.fbx"} {
		sc, err := format.ReadScene(shareddata.Path(t, "dembones/"+other), format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := seq.SameFaces(geom, sc.Mesh); err != nil {
			t.Errorf("%s: %v", other, err)
		}
		for i, v := range sc.Mesh.Verts {
			if v.Dist(geom.Verts[i]) > 1e-6 {
				t.Fatalf("%s: vertex %d at %v, Bone_Geom's at %v", other, i+1, v, geom.Verts[i])
			}
		}
	}
}

// TestRealSurface: Maya's UV set, normals and material come through: the
// file's normals point the way the faces do (mean cosine with the face
// normals above 0.9) and UVs lie in the unit square.
func TestRealSurface(t *testing.T) {
	sc, err := format.ReadScene(shareddata.Path(t, "dembones/Bone_Skin.fbx"), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := sc.Mesh
	s := m.Surface
	if s == nil || len(s.UVs) != 1 || s.UVs[0].Name != "map1" || s.Normals == nil ||
		len(s.Materials) != 1 || s.Materials[0].Name != "lambert1" || len(s.Parts) != 1 {
		t.Fatalf("surface %+v", s)
	}
	fn := mesh.FaceNormals(nil, m.Verts, m.Tris)
	var cos float64
	for tri := range m.Tris {
		for k := 0; k < 3; k++ {
			n := s.Normals.At(tri, k, m.Tris[tri][k])
			cos += fn[tri].Dot(linalg.Vec3{float64(n[0]), float64(n[1]), float64(n[2])})
			uv := s.UVs[0].At(tri, k, m.Tris[tri][k])
			if uv[0] < 0 || uv[0] > 1 || uv[1] < 0 || uv[1] > 1 {
				t.Fatalf("UV %v outside the unit square", uv)
			}
		}
	}
	if cos /= float64(3 * len(m.Tris)); cos < 0.9 {
		t.Errorf("mean cosine of file and face normals %v", cos)
	}
	t.Logf("mean cosine of file and face normals %.4f", cos)
}

// TestRealTruncated: Decomposition_05.fbx cut at 97 points and with a
// byte flipped in each of its arrays' headers: one error each, with an
// offset, never a panic.
func TestRealTruncated(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "dembones/Decomposition_05.fbx"))
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < 98; k++ {
		n := len(data) * k / 98
		_, err := ReadFile(data[:n])
		if err == nil {
			_, err = load(data[:n])
		}
		if err == nil {
			t.Fatalf("cut at %d of %d bytes read without error", n, len(data))
		}
		offsetOf(t, err)
	}
	doc, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var arrays []int64
	var walk func([]*Node)
	walk = func(ns []*Node) {
		for _, n := range ns {
			for _, p := range n.Props {
				if elemSize(p.Type) > 0 {
					arrays = append(arrays, p.Offset)
				}
			}
			walk(n.Children)
		}
	}
	walk(doc.Nodes)
	for _, at := range arrays {
		// The top byte of the element count: past anything the file holds.
		b := append([]byte(nil), data...)
		b[at+4] ^= 0x10
		if _, err := Decode(b); err == nil {
			t.Fatalf("array at %d with its count raised read without error", at)
		} else {
			offsetOf(t, err)
		}
	}
	if len(arrays) < 50 {
		t.Errorf("only %d arrays", len(arrays))
	}
}
