package gltf

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// longArm is armScene with its keys at 0, 1 and end seconds: unevenly
// spaced, so it is sampled at 30 fps up to end.
func longArm(t testing.TB, end float32) []byte {
	return armScene(t, 1, func(b *bin, d map[string]any) {
		times := b.f32("SCALAR", 0, 1, end)
		for _, s := range item(d, "animations", 0)["samplers"].([]any) {
			s.(map[string]any)["input"] = times
		}
	})
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLongClipRefusedBeforeSampling: keys running to 10⁶ s at 30 fps are
// 3·10⁷ frames; the reader refuses them, naming the size and the ways
// out, before allocating anything per frame.
func TestLongClipRefusedBeforeSampling(t *testing.T) {
	data := longArm(t, 1e6)
	var err error
	bytes := allocated(func() { _, err = ReadScene(fstest.MapFS{"a.gltf": {Data: data}}, "a.gltf", format.SceneOptions{}) })
	if err == nil {
		t.Fatal("3·10⁷ frames sampled")
	}
	for _, want := range []string{`animation "bend"`, "30000001 frames", "9 vertices", "GiB", "--fps", "--clip", "--frames A:B"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if bytes > 16<<20 {
		t.Errorf("refusing allocated %d MiB", bytes>>20)
	}
}

// TestLongClipNotCut: a clip of more frames than the reader used to cut
// at (200,001) but within the bound is sampled whole, to its last key.
func TestLongClipNotCut(t *testing.T) {
	const fps = 70001 // 3 s of keys: 210,004 frames
	s := readMap(t, cubicScene(t), format.SceneOptions{FPS: fps}).Sequence
	if s.F() != 3*fps+1 {
		t.Fatalf("%d frames, want %d", s.F(), 3*fps+1)
	}
	// p(t) = (t², 0, 0): the last frame is at t = 3 s.
	if got := s.FrameInto(nil, s.F()-1)[0]; got.Dist(linalg.Vec3{9, 0, 0}) > 1e-6 {
		t.Errorf("last frame: vertex 1 at %v, want (9,0,0)", got)
	}
}

// TestFrames: SceneOptions.Frames keeps a range of each clip's frames,
// the same frames as sampling all, with the file's rig cut to match.
func TestFrames(t *testing.T) {
	all := readMap(t, cubicScene(t), format.SceneOptions{FPS: 1}).Sequence // t = 0, 1, 2, 3
	for _, tc := range []struct {
		r     format.FrameRange
		first int // 0-based frame of all
		n     int
	}{
		{format.FrameRange{First: 2, Last: 3}, 1, 2},
		{format.FrameRange{First: 3}, 2, 2},
		{format.FrameRange{Last: 1}, 0, 1},
		{format.FrameRange{First: 2, Last: 40}, 1, 3}, // stops at the clip's end
		{format.FrameRange{}, 0, 4},
	} {
		t.Run(tc.r.String(), func(t *testing.T) {
			s := readMap(t, cubicScene(t), format.SceneOptions{FPS: 1, Frames: tc.r}).Sequence
			if s.F() != tc.n || s.Clips[0].Len() != tc.n || s.Clips[0].FPS != 1 {
				t.Fatalf("F=%d clips %+v, want %d frames at 1 fps", s.F(), s.Clips, tc.n)
			}
			for f := 0; f < tc.n; f++ {
				for i, v := range s.Frame(f) {
					if v != all.Frame(tc.first + f)[i] {
						t.Fatalf("frame %d vertex %d at %v, want %v", f+1, i+1, v, all.Frame(tc.first + f)[i])
					}
				}
				if want := fmt.Sprintf("square@%gs", float64(tc.first+f)); s.FrameNames[f] != want {
					t.Errorf("frame %d named %q, want %q", f+1, s.FrameNames[f], want)
				}
			}
		})
	}
	_, err := ReadScene(fstest.MapFS{"a.gltf": {Data: cubicScene(t)}}, "a.gltf", format.SceneOptions{FPS: 1, Frames: format.FrameRange{First: 5}})
	if err == nil || !strings.Contains(err.Error(), `"square"`) || !strings.Contains(err.Error(), "4 frames") {
		t.Errorf("frames 5: of 4: %v", err)
	}
	_, err = ReadScene(fstest.MapFS{"a.gltf": {Data: cubicScene(t)}}, "a.gltf", format.SceneOptions{Frames: format.FrameRange{First: 3, Last: 2}})
	if err == nil {
		t.Error("frames 3:2 accepted")
	}
}

// TestFramesOfLongClip: a range picks frames anywhere in a clip too long
// to sample whole, and the file's rig replays them.
func TestFramesOfLongClip(t *testing.T) {
	data := longArm(t, 1e6)
	for _, tc := range []struct {
		r    format.FrameRange
		want int
	}{{format.FrameRange{First: 1, Last: 1000}, 1000}, {format.FrameRange{First: 29_999_001}, 1001}} {
		t.Run(tc.r.String(), func(t *testing.T) {
			sc := readMap(t, data, format.SceneOptions{Frames: tc.r})
			if s := sc.Sequence; s.F() != tc.want || len(sc.Rig.Clips) != 1 || sc.Rig.Clips[0].Frames != tc.want {
				t.Fatalf("F=%d, rig clips %d, want %d frames in both", s.F(), len(sc.Rig.Clips), tc.want)
			}
			if want := fmt.Sprintf("bend@%.4gs", float64(tc.r.First-1+tc.want-1)/30); sc.Sequence.FrameNames[tc.want-1] != want {
				t.Errorf("last frame named %q, want %q", sc.Sequence.FrameNames[tc.want-1], want)
			}
			replays(t, sc)
		})
	}
}

func TestContextStopsSampling(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReadScene(fstest.MapFS{"a.gltf": {Data: cubicScene(t)}}, "a.gltf", format.SceneOptions{Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestMegahertzKeys: evenly spaced keys a microsecond apart are the
// clip's own frames, not one merged key.
func TestMegahertzKeys(t *testing.T) {
	b := &bin{}
	pos := b.f32("VEC3", 0, 0, 0, 1, 0, 0, 0, 1, 0)
	times := b.f32("SCALAR", 0, 1e-6, 2e-6, 3e-6)
	moves := b.f32("VEC3", 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0)
	doc := b.doc(t, "", map[string]any{
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": pos}}}}},
		"nodes":  []any{map[string]any{"mesh": 0}},
		"animations": []any{map[string]any{"name": "fast",
			"samplers": []any{map[string]any{"input": times, "output": moves}},
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "translation"}}}}},
	})
	s := readMap(t, doc, format.SceneOptions{}).Sequence
	if s.F() != 4 || math.Abs(s.Clips[0].FPS-1e6) > 1 {
		t.Fatalf("%d frames at %v fps, want 4 at 10⁶", s.F(), s.Clips[0].FPS)
	}
	for f := 0; f < 4; f++ {
		if x := s.FrameInto(nil, f)[0][0]; math.Abs(x-float64(f)) > 1e-6 {
			t.Errorf("frame %d at x=%v, want %d", f+1, x, f)
		}
	}
}

// poseAt evaluates the animation clipName of a glTF file at time at, the
// way sampling evaluates a frame: the reference for a frame on a key.
func poseAt(t *testing.T, fsys fs.FS, name, clipName string, at float64) []linalg.Vec3 {
	t.Helper()
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decode(data, fsys)
	if err != nil {
		t.Fatal(err)
	}
	g, err := newGraph(doc)
	if err != nil {
		t.Fatal(err)
	}
	prims, err := primitives(doc, g)
	if err != nil {
		t.Fatal(err)
	}
	morphs := make([]int, len(doc.Nodes))
	for _, p := range prims {
		morphs[p.node] = max(morphs[p.node], len(p.targets))
	}
	clips, err := readClips(doc, morphs)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := newEvaluator(doc, g, prims)
	if err != nil {
		t.Fatal(err)
	}
	for i := range clips {
		if clips[i].name == clipName {
			out := make([]linalg.Vec3, ev.nverts)
			ev.frame(&clips[i], at, out)
			return out
		}
	}
	t.Fatalf("no clip %q", clipName)
	return nil
}

// armTip is where longArm(end) puts its arm's tip, at rest (2,0,0), at
// time t: the arm turns 90° about its head (1,0,0) by t = 1 and 90° more by
// end, at constant speed (slerp), while the base slides (0,t,0), then on
// to (1,1,0).
func armTip(t, end float64) linalg.Vec3 {
	a, slide := math.Pi/2*t, linalg.Vec3{0, t, 0}
	if t > 1 {
		u := (t - 1) / (end - 1)
		a, slide = math.Pi/2*(1+u), linalg.Vec3{u, 1, 0}
	}
	return slide.Add(linalg.Vec3{1 + math.Cos(a), math.Sin(a), 0})
}

// TestSamplingSpansKeys: a clip sampled at a rate is sampled from its
// first key to its last in evenly spaced frames, at the rate asked when
// its length is a whole number of frames and else at the next rate that
// makes it one; the first and last frames are the keys' poses exactly.
func TestSamplingSpansKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  float32 // keys at 0, 1 and end s
		fps  float64 // asked; 0: the default for uneven keys, 30
		n    int     // frame steps
		rate float64
	}{
		{"1.25 s at 30 fps: 37.5 frames", 1.25, 0, 38, 38 / 1.25},
		{"1.25 s at 7 fps: 8.75 frames", 1.25, 7, 9, 9 / 1.25},
		{"1.25 s at 24 fps: 30 frames", 1.25, 24, 30, 24},
		// float32(1.1) is 1.1000000238: 33.0000007 frames are 33.
		{"1.1 s at 30 fps: 33 frames up to float32", 1.1, 0, 33, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := longArm(t, tc.end)
			s := readMap(t, data, format.SceneOptions{FPS: tc.fps}).Sequence
			c := s.Clips[0]
			if s.F() != tc.n+1 || c.FPS != tc.rate {
				t.Fatalf("%d frames at %v fps, want %d at %v", s.F(), c.FPS, tc.n+1, tc.rate)
			}
			asked := tc.fps
			if asked == 0 {
				asked = 30
			}
			if c.FPS < asked {
				t.Errorf("sampled at %v fps, coarser than the %v asked", c.FPS, asked)
			}
			fsys := fstest.MapFS{"a.gltf": {Data: data}}
			end := float64(tc.end)
			for _, k := range []struct {
				frame int
				at    float64
			}{{0, 0}, {tc.n, end}} {
				want := poseAt(t, fsys, "a.gltf", "bend", k.at)
				for i, v := range s.FrameInto(nil, k.frame) {
					if v != want[i].Vec3f().Vec3() { // frames hold float32
						t.Fatalf("frame %d vertex %d at %v, want %v: the pose at the key, %v s", k.frame+1, i+1, v, want[i], k.at)
					}
				}
			}
			// Frame f plays at f/rate: the tip (strip vertex 5) follows.
			for f := 0; f <= tc.n; f++ {
				if got, want := s.FrameInto(nil, f)[4], armTip(float64(f)/c.FPS, end); got.Dist(want) > 1e-6 {
					t.Errorf("frame %d: tip at %v, want %v (t = %v s)", f+1, got, want, float64(f)/c.FPS)
				}
			}
		})
	}
}
