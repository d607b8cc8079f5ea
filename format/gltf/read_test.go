package gltf

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/metric"
)

// TestRealCharacters samples the skinned characters of the shared data,
// checks the file's own rig reproduces every sampled frame, then exports
// that rig through our writer, reads it back and checks again.
func TestRealCharacters(t *testing.T) {
	cases := []struct {
		file          string
		opt           format.SceneOptions
		verts, joints int
		clips         []string
	}{
		{"CesiumMan.glb", format.SceneOptions{}, 3273, 19, []string{"Anim_0"}},
		{"Fox.glb", format.SceneOptions{}, 1728, 24, []string{"Survey", "Walk", "Run"}},
		{"Fox.glb", format.SceneOptions{FPS: 50, Clip: "Walk"}, 1728, 24, []string{"Walk"}},
		{"RiggedSimple.glb", format.SceneOptions{}, 960, 4, []string{"Anim_0_Armature"}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s@%vfps", tc.file, tc.opt.FPS), func(t *testing.T) {
			path := shareddata.Path(t, filepath.Join("gltf", tc.file))
			sc, err := format.ReadScene(path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			s := sc.Sequence
			if s.N() != tc.verts {
				t.Errorf("%d vertices, want %d", s.N(), tc.verts)
			}
			if sc.Rig == nil {
				t.Fatal("no ground-truth rig")
			}
			if err := sc.Rig.Validate(); err != nil {
				t.Fatal(err)
			}
			if sc.Rig.Skeleton.Len() != tc.joints {
				t.Errorf("%d joints, want %d", sc.Rig.Skeleton.Len(), tc.joints)
			}
			if len(s.Clips) != len(tc.clips) {
				t.Fatalf("clips %+v, want %q", s.Clips, tc.clips)
			}
			keys := keyTimes(t, path)
			for k, name := range tc.clips {
				c := s.Clips[k]
				if c.Name != name {
					t.Errorf("clip %d is %q, want %q", k, c.Name, name)
				}
				// Every clip spans its keys: at its own keys when evenly
				// spaced and no rate is asked, else in the fewest evenly
				// spaced frames at least as fine as the rate asked (30 fps
				// for uneven keys: Fox's Run has a gap) that end on the
				// last key.
				times := keys[name]
				fps := tc.opt.FPS
				if fps == 0 && !evenlySpaced(times) {
					fps = 30
				}
				if fps == 0 {
					if c.Len() != len(times) {
						t.Errorf("clip %q: %d frames, want its %d keys", name, c.Len(), len(times))
					}
					continue
				}
				span, n := times[len(times)-1]-times[0], float64(c.Len()-1)
				if n < span*fps-1e-6 || n-1 >= span*fps {
					t.Errorf("clip %q: %d frames over %v s, want the fewest at %v fps or finer", name, c.Len(), span, fps)
				}
				if math.Abs(c.FPS-n/span) > 1e-5*c.FPS {
					t.Errorf("clip %q: %d frames over %v s at %v fps", name, c.Len(), span, c.FPS)
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
			t.Logf("%s: %d frames, %d clips; own rig RMSE%% %.2g (Max%% %.2g), exported and read back RMSE%% %.2g (Max%% %.2g)",
				tc.file, s.F(), len(s.Clips), rep.RMSEPercent, rep.MaxPercent, rep2.RMSEPercent, rep2.MaxPercent)
			if rep2.RMSEPercent >= 0.01 {
				t.Errorf("exported rig replays at RMSE%% %.4g, want < 0.01", rep2.RMSEPercent)
			}
		})
	}
}

// TestFoxRunEndsOnLastKey: Fox's Run, 25 uneven keys from 0 to 1.1583 s,
// sampled at 30 fps or finer, ends on the pose of its last key instead of
// stopping a frame short of it.
func TestFoxRunEndsOnLastKey(t *testing.T) {
	path := shareddata.Path(t, filepath.Join("gltf", "Fox.glb"))
	times := keyTimes(t, path)["Run"]
	if len(times) != 25 || evenlySpaced(times) {
		t.Fatalf("Run has keys %v: want Fox's 25 uneven keys", times)
	}
	sc, err := format.ReadScene(path, format.SceneOptions{Clip: "Run"})
	if err != nil {
		t.Fatal(err)
	}
	s, end := sc.Sequence, times[len(times)-1]
	// 1.1583 s are 34.75 frames at 30 fps: 35 steps at 30.216 fps.
	if c := s.Clips[0]; s.F() != 36 || c.FPS != 35/end {
		t.Fatalf("%d frames at %v fps, want 36 at %v", s.F(), c.FPS, 35/end)
	}
	if name := s.FrameNames[s.F()-1]; name != "Run@1.158s" {
		t.Errorf("last frame named %q, want Run@1.158s", name)
	}
	fsys := os.DirFS(filepath.Dir(path))
	for f, at := range map[int]float64{0: times[0], s.F() - 1: end} {
		want := poseAt(t, fsys, "Fox.glb", "Run", at)
		for i, v := range s.FrameInto(nil, f) {
			if v != want[i].Vec3f().Vec3() { // frames hold float32
				t.Fatalf("frame %d vertex %d at %v, want %v: the pose at %v s", f+1, i+1, v, want[i], at)
			}
		}
	}
}

// keyTimes returns the distinct key times of every animation of a file,
// read with qmuntal/gltf's own accessor reader.
func keyTimes(t *testing.T, path string) map[string][]float64 {
	doc, err := gltflib.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	for _, an := range doc.Animations {
		var all []float64
		for _, s := range an.Samplers {
			v, err := modeler.ReadAccessor(doc, doc.Accessors[s.Input], nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range v.([]float32) {
				all = append(all, float64(x))
			}
		}
		slices.Sort(all)
		var uniq []float64
		for _, x := range all {
			if len(uniq) == 0 || x-uniq[len(uniq)-1] > 1e-6 {
				uniq = append(uniq, x)
			}
		}
		out[an.Name] = uniq
	}
	return out
}

func evenlySpaced(times []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := 1; k < len(times); k++ {
		lo, hi = min(lo, times[k]-times[k-1]), max(hi, times[k]-times[k-1])
	}
	return hi-lo < 1e-3*hi
}

// BenchmarkReadFox reads Fox.glb and samples its three clips (136 frames
// of 1728 vertices).
func BenchmarkReadFox(b *testing.B) {
	path := shareddata.Path(b, filepath.Join("gltf", "Fox.glb"))
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	fsys := fstest.MapFS{"Fox.glb": {Data: data}}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadScene(fsys, "Fox.glb", format.SceneOptions{}); err != nil {
			b.Fatal(err)
		}
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
				if e := sc.Sequence.Pos(0, k).Dist(want.Pos(0, k)); e > 1e-5*d {
					t.Fatalf("sampled frame %d vertex %d off by %.3g·d", k/want.N(), k%want.N(), e/d)
				}
			}
		})
	}
}
