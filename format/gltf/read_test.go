package gltf

import (
	"bytes"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testrig"
	"github.com/meshrig/meshrig/metric"
)

// TestRealCharacters samples the skinned characters of the shared data,
// checks the file's own rig reproduces every sampled frame, then exports
// that rig through our writer, reads it back and checks again.
func TestRealCharacters(t *testing.T) {
	cases := []struct {
		file          string
		verts, joints int
		clips         []string
	}{
		{"CesiumMan.glb", 3273, 19, nil},
		{"Fox.glb", 1728, 24, []string{"Survey", "Walk", "Run"}},
		{"RiggedSimple.glb", 0, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			path := shareddata.Path(t, filepath.Join("gltf", tc.file))
			sc, err := format.ReadScene(path, format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := sc.Sequence
			if tc.verts > 0 && s.N() != tc.verts {
				t.Errorf("%d vertices, want %d", s.N(), tc.verts)
			}
			if sc.Rig == nil {
				t.Fatal("no ground-truth rig")
			}
			if tc.joints > 0 && sc.Rig.Skeleton.Len() != tc.joints {
				t.Errorf("%d joints, want %d", sc.Rig.Skeleton.Len(), tc.joints)
			}
			for k, name := range tc.clips {
				if s.Clips[k].Name != name {
					t.Errorf("clip %d is %q, want %q", k, s.Clips[k].Name, name)
				}
			}
			rep, err := metric.Compare(s, sc.Rig)
			if err != nil {
				t.Fatal(err)
			}
			if rep.RMSEPercent >= 0.01 {
				t.Errorf("the file's own rig replays at RMSE%% %.4g, want < 0.01", rep.RMSEPercent)
			}
			out := filepath.Join(t.TempDir(), "out.glb")
			if err := format.WriteFile(out, sc.Rig, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			back, err := format.ReadScene(out, format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rep2, err := metric.Compare(s, back.Rig)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d frames, %d clips; own rig RMSE%% %.2g, exported and read back RMSE%% %.2g (Max%% %.2g)",
				tc.file, s.F(), len(s.Clips), rep.RMSEPercent, rep2.RMSEPercent, rep2.MaxPercent)
			if rep2.RMSEPercent >= 0.01 {
				t.Errorf("exported rig replays at RMSE%% %.4g, want < 0.01", rep2.RMSEPercent)
			}
		})
	}
}

// TestOwnOutputRoundTrip reads back what the writer wrote and checks the
// replay matches the in-memory rig within 1e-5·d.
func TestOwnOutputRoundTrip(t *testing.T) {
	for name, r := range testRigs(t) {
		if len(r.Clips) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			fsys := fstest.MapFS{"r.glb": {Data: buf.Bytes()}}
			sc, err := ReadScene(fsys, "r.glb", format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := testrig.Play(t, r)
			rep, err := metric.Compare(want, sc.Rig)
			if err != nil {
				t.Fatal(err)
			}
			if rep.MaxPercent > 1e-3 { // 1e-5·d
				t.Errorf("read-back rig off by Max%% %.3g", rep.MaxPercent)
			}
			// The sampled sequence itself matches too.
			if sc.Sequence.F() != want.F() {
				t.Fatalf("%d sampled frames, want %d", sc.Sequence.F(), want.F())
			}
			d := want.Diagonal()
			for k := range want.Frames {
				if e := sc.Sequence.Frames[k].Dist(want.Frames[k]); e > 1e-5*d {
					t.Fatalf("sampled frame %d vertex %d off by %.3g·d", k/want.N(), k%want.N(), e/d)
				}
			}
		})
	}
}
