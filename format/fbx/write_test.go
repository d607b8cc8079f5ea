package fbx

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
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
		want := testrig.Play(t, r)
		rep, err := metric.ComparePlayback(want, sc.Sequence)
		if err != nil {
			t.Fatal(err)
		}
		if rep.MaxPercent > 1e-4 {
			t.Errorf("playback of the file read back: Max%% %v", rep.MaxPercent)
		}
		rep, err = metric.Compare(want, back)
		if err != nil {
			t.Fatal(err)
		}
		if rep.MaxPercent > 1e-4 {
			t.Errorf("rig read back: Max%% %v", rep.MaxPercent)
		}
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
