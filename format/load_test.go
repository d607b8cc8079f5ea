package format_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/mdd"
	"github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

func writeOBJ(t *testing.T, path string, m *mesh.Mesh) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := obj.Write(f, m); err != nil {
		t.Fatal(err)
	}
}

// triFrame returns a triangle whose third vertex sits at height z.
func triFrame(z float64) *mesh.Mesh {
	m, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, z}}, [][]int{{0, 1, 2}})
	return m
}

func TestNaturalLess(t *testing.T) {
	in := []string{"f10.obj", "f2.obj", "f1.obj", "f01.obj", "g.obj", "f"}
	want := []string{"f", "f01.obj", "f1.obj", "f2.obj", "f10.obj", "g.obj"}
	for i := range in {
		for j := range in {
			a, b := in[i], in[j]
			ia, ib := index(want, a), index(want, b)
			if got := format.NaturalLess(a, b); got != (ia < ib) {
				t.Errorf("NaturalLess(%q, %q) = %v", a, b, got)
			}
		}
	}
}

func index(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func TestLoadFolderNaturalOrderAndRest(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []int{1, 2, 10} {
		writeOBJ(t, filepath.Join(dir, fmt.Sprintf("frame-%d.obj", k)), triFrame(float64(k)))
	}
	in, err := format.Load([]string{dir}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := in.Sequence
	if s.F() != 3 || s.Frame(2)[2][2] != 10 || s.Frame(1)[2][2] != 2 {
		t.Fatalf("frames out of natural order: F=%d z=%v,%v", s.F(), s.Frame(1)[2][2], s.Frame(2)[2][2])
	}
	if s.Rest.Verts[2][2] != 1 {
		t.Errorf("rest should be frame 1, has z=%v", s.Rest.Verts[2][2])
	}
	writeOBJ(t, filepath.Join(dir, "rest.obj"), triFrame(0))
	in, err = format.Load([]string{dir}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Sequence.F() != 3 || in.Sequence.Rest.Verts[2][2] != 0 {
		t.Errorf("rest.obj not used as rest: F=%d", in.Sequence.F())
	}
	in, err = format.Load([]string{dir}, format.LoadOptions{Rest: "frame:2"})
	if err != nil {
		t.Fatal(err)
	}
	if in.Sequence.Rest.Verts[2][2] != 2 {
		t.Errorf("--rest frame:2 not honoured")
	}
	// Two clips sharing a rest pose.
	dir2 := t.TempDir()
	writeOBJ(t, filepath.Join(dir2, "a.obj"), triFrame(5))
	in, err = format.Load([]string{dir, dir2}, format.LoadOptions{Rest: filepath.Join(dir, "rest.obj")})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Sequence.Clips) != 2 || in.Sequence.F() != 4 {
		t.Errorf("clips %+v", in.Sequence.Clips)
	}
	// A glob.
	in, err = format.Load([]string{filepath.Join(dir, "frame-*.obj")}, format.LoadOptions{})
	if err != nil || in.Sequence.F() != 3 {
		t.Fatalf("glob: %v", err)
	}
}

// TestLoadPointCaches loads each point cache with its rest mesh given
// beside it, as `meshrig rig rest.obj anim.pc2` does, and refuses a cache
// alone.
func TestLoadPointCaches(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	var frames [][]linalg.Vec3
	for f := 0; f < 4; f++ {
		frames = append(frames, r.Frame(nil, 0, f))
	}
	for _, tc := range []struct {
		ext   string
		write func(w io.Writer) error
	}{
		{".pc2", func(w io.Writer) error { return pc2.Write(w, frames) }},
		{".mdd", func(w io.Writer) error { return mdd.Write(w, frames, 30) }},
	} {
		t.Run(tc.ext, func(t *testing.T) {
			dir := t.TempDir()
			rest := filepath.Join(dir, "rest.obj")
			writeOBJ(t, rest, r.Mesh)
			cache := filepath.Join(dir, "anim"+tc.ext)
			var buf bytes.Buffer
			if err := tc.write(&buf); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(cache, buf.Bytes(), 0o644)
			in, err := format.Load([]string{rest, cache}, format.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := in.Sequence
			if s.F() != 4 || s.Clips[0].Name != "anim" || s.Clips[0].FPS != 30 {
				t.Fatalf("F=%d clips %+v", s.F(), s.Clips)
			}
			if d := s.FrameInto(nil, 3)[7].Dist(frames[3][7]); d > 1e-6 {
				t.Errorf("frame 4 vertex 8 off by %v", d)
			}
			if _, err := format.Load([]string{cache}, format.LoadOptions{}); err == nil {
				t.Fatal("a cache without a rest mesh was accepted")
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	empty := t.TempDir()
	if _, err := format.Load([]string{empty}, format.LoadOptions{}); !errors.Is(err, format.ErrNoFrames) {
		t.Errorf("empty folder: %v", err)
	}
	dir := t.TempDir()
	writeOBJ(t, filepath.Join(dir, "f1.obj"), triFrame(0))
	four, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, [][]int{{0, 1, 2}})
	writeOBJ(t, filepath.Join(dir, "f2.obj"), four)
	_, err := format.Load([]string{dir}, format.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "f2.obj") || !strings.Contains(err.Error(), "4 vertices") {
		t.Errorf("vertex-count mismatch: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "f2.obj"), []byte("v 0 0 0\nv 1 0 nan\nv 0 1 0\nf 1 2 3\n"), 0o644)
	_, err = format.Load([]string{dir}, format.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "f2.obj:2") {
		t.Errorf("NaN: %v", err)
	}
	if _, err := format.Load([]string{filepath.Join(dir, "missing")}, format.LoadOptions{}); err == nil {
		t.Error("missing path accepted")
	}
}

func TestLoadRealSequences(t *testing.T) {
	root := shareddata.Path(t, "sequences")
	want := map[string][3]int{ // vertices, triangles, frames
		"horse-gallop": {8431, 16843, 48},
		"cat-poses":    {7207, 14410, 9},
		"lion-poses":   {5000, 9996, 9},
		"cow":          {2904, 5804, 204},
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			in, err := format.Load([]string{filepath.Join(root, name)}, format.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := in.Sequence
			if s.N() != w[0] || len(s.Rest.Tris) != w[1] || s.F() != w[2] {
				t.Fatalf("got %d vertices, %d triangles, %d frames; want %v", s.N(), len(s.Rest.Tris), s.F(), w)
			}
		})
	}
}

func BenchmarkLoadHorse(b *testing.B) {
	dir := shareddata.Path(b, "sequences/horse-gallop")
	for b.Loop() {
		if _, err := format.Load([]string{dir}, format.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
