package format_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
)

// frameFolder writes n triangle frames, frame-K.obj at height K, and
// returns the folder.
func frameFolder(t *testing.T, n int) string {
	dir := t.TempDir()
	for k := 1; k <= n; k++ {
		writeOBJ(t, filepath.Join(dir, fmt.Sprintf("frame-%d.obj", k)), triFrame(float64(k)))
	}
	return dir
}

// heights returns each frame's third vertex height: its frame-K number.
func heights(in *format.Input) []float64 {
	var z []float64
	for f := 0; f < in.Sequence.F(); f++ {
		z = append(z, in.Sequence.FrameInto(nil, f)[2][2])
	}
	return z
}

// TestLoadFrames: --frames A:B keeps frames A to B of every clip, reads
// no mesh file outside it, and stops at a shorter clip's end.
func TestLoadFrames(t *testing.T) {
	five, three := frameFolder(t, 5), frameFolder(t, 3)
	// Frame 5 is broken: reading it would fail the load.
	os.WriteFile(filepath.Join(five, "frame-5.obj"), []byte("v 1 2\n"), 0o644)
	in, err := format.Load([]string{five}, format.LoadOptions{Frames: format.FrameRange{First: 2, Last: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if z := heights(in); !slices.Equal(z, []float64{2, 3, 4}) {
		t.Errorf("frames %v, want 2, 3, 4", z)
	}
	var want []string
	for k := 2; k <= 4; k++ {
		want = append(want, filepath.Join(five, fmt.Sprintf("frame-%d.obj", k)))
	}
	if !slices.Equal(in.Files, want) {
		t.Errorf("Files %q, want %q", in.Files, want)
	}

	// Two folders: 2:4 of each, the shorter one to its end.
	in, err = format.Load([]string{five, three}, format.LoadOptions{Frames: format.FrameRange{First: 2, Last: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if z := heights(in); !slices.Equal(z, []float64{2, 3, 4, 2, 3}) || len(in.Sequence.Clips) != 2 || in.Sequence.Clips[1].Start != 3 {
		t.Errorf("frames %v clips %+v, want 2, 3, 4 | 2, 3", z, in.Sequence.Clips)
	}

	// Files given one by one are one clip; --rest frame:K counts kept frames.
	loose := []string{filepath.Join(three, "frame-1.obj"), filepath.Join(three, "frame-2.obj"), filepath.Join(three, "frame-3.obj")}
	in, err = format.Load(loose, format.LoadOptions{Frames: format.FrameRange{First: 2}, Rest: "frame:2"})
	if err != nil {
		t.Fatal(err)
	}
	if z := heights(in); !slices.Equal(z, []float64{2, 3}) || in.Sequence.Rest.Verts[2][2] != 3 {
		t.Errorf("frames %v rest height %v, want 2, 3 and rest 3", z, in.Sequence.Rest.Verts[2][2])
	}

	// A clip with fewer frames than A is named.
	_, err = format.Load([]string{five, three}, format.LoadOptions{Frames: format.FrameRange{First: 4, Last: 4}})
	if err == nil || !strings.Contains(err.Error(), "3 frames") || !strings.Contains(err.Error(), "4:4") {
		t.Errorf("frames 4:4 of a 3-frame folder: %v", err)
	}
	if _, err := format.Load([]string{three}, format.LoadOptions{Frames: format.FrameRange{First: 3, Last: 2}}); err == nil {
		t.Error("frames 3:2 accepted")
	}
}

// TestLoadFramesCacheAndScene: the range applies to point caches and to
// glTF animations too.
func TestLoadFramesCacheAndScene(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	var frames [][]linalg.Vec3
	for f := 0; f < 4; f++ {
		frames = append(frames, r.Frame(nil, 0, f))
	}
	dir := t.TempDir()
	rest, cache := filepath.Join(dir, "rest.obj"), filepath.Join(dir, "anim.pc2")
	writeOBJ(t, rest, r.Mesh)
	var buf bytes.Buffer
	if err := pc2.Write(&buf, frames); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cache, buf.Bytes(), 0o644)
	in, err := format.Load([]string{rest, cache}, format.LoadOptions{Frames: format.FrameRange{First: 2, Last: 3}})
	if err != nil {
		t.Fatal(err)
	}
	s := in.Sequence
	if s.F() != 2 || s.FrameNames[0] != "anim.pc2#2" || s.FrameInto(nil, 1)[7].Dist(frames[2][7]) > 1e-6 {
		t.Errorf("F=%d names %q, want frames 2 and 3 of the cache", s.F(), s.FrameNames)
	}
	if !slices.Equal(in.Files, []string{rest, cache}) {
		t.Errorf("Files %q, want the rest mesh and the cache", in.Files)
	}

	gltf, bin := sceneWithBuffer(t)
	in, err = format.Load([]string{gltf}, format.LoadOptions{Frames: format.FrameRange{First: 2, Last: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if in.Sequence.F() != 1 {
		t.Errorf("%d frames of the glTF, want 1", in.Sequence.F())
	}
	if !slices.Equal(in.Files, []string{gltf, bin}) {
		t.Errorf("Files %q, want the glTF and its buffer", in.Files)
	}
}

// sceneWithBuffer copies the glTF package's two-frame scene with an
// external buffer into a temporary folder.
func sceneWithBuffer(t *testing.T) (gltf, bin string) {
	dir := t.TempDir()
	for _, name := range []string{"external.gltf", "external.bin"} {
		data, err := os.ReadFile(filepath.Join("gltf", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	return filepath.Join(dir, "external.gltf"), filepath.Join(dir, "external.bin")
}

func TestLoadContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gltf, _ := sceneWithBuffer(t)
	for _, arg := range []string{frameFolder(t, 3), gltf} {
		if _, err := format.Load([]string{arg}, format.LoadOptions{Context: ctx}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", arg, err)
		}
	}
}
