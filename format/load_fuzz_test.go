package format_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/format/mdd"
	"github.com/meshrig/meshrig/format/obj"
	_ "github.com/meshrig/meshrig/format/off"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// Tables the bytes of FuzzLoad's layout pick from.
var (
	fuzzDirs  = []string{"", "a", "b", "a/c"}
	fuzzStems = []string{"frame-1", "frame-2", "frame-10", "rest", "Reference", "x*", "[a]", "f?", "-", "frame-01"}
	fuzzExts  = []string{".obj", ".OBJ", ".off", ".obj.gz", ".pc2", ".mdd", ".glb", ".gltf", ".txt", "", ".gz"}
	fuzzGlobs = []string{"*.obj", "a/*", "frame-?.obj", "[", "*.pc2", "b/*.off", "*", "a/c/*.obj*", "x*"}
	fuzzFPS   = []float64{0, 30, 24, -1, math.NaN(), math.Inf(1), 1e-300, 1e300}
)

// fuzzTree writes the files a layout describes into dir and returns the
// arguments and frame rate it names. Layout bytes, each taken modulo its
// table (zeros once they run out): a file count (1–6); per file its
// folder, stem, extension, content kind and a height; an argument count
// (1–3) and per argument its kind and index; the frame rate. Contents are
// a triangle (or, for kind 1, a quad's four vertices) in the file's
// format, a point cache of 1–3 frames of a triangle, the extra bytes, or
// nothing.
func fuzzTree(t *testing.T, dir string, layout, extra []byte) (args []string, fps float64) {
	pos := 0
	next := func() int {
		if pos >= len(layout) {
			return 0
		}
		pos++
		return int(layout[pos-1])
	}
	var files []string
	for k, n := 0, 1+next()%6; k < n; k++ {
		sub := fuzzDirs[next()%len(fuzzDirs)]
		name := fuzzStems[next()%len(fuzzStems)] + fuzzExts[next()%len(fuzzExts)]
		kind, z := next()%4, float64(next()%5)
		rel := filepath.Join(sub, name)
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		var data []byte
		switch kind {
		case 0, 1:
			data = fuzzContent(t, name, z, kind == 1)
		case 2:
			data = extra
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			continue // a stem and folder of the same name: skip the file
		}
		files = append(files, rel)
	}
	for k, n := 0, 1+next()%3; k < n; k++ {
		kind, i := next()%5, next()
		var a string
		switch kind {
		case 0:
			a = fuzzDirs[i%len(fuzzDirs)]
		case 1:
			if len(files) > 0 {
				a = files[i%len(files)]
			}
		case 2:
			a = fuzzGlobs[i%len(fuzzGlobs)]
		case 3:
			a = "missing" + fuzzExts[i%len(fuzzExts)]
		case 4:
			a = filepath.Join(fuzzDirs[i%len(fuzzDirs)], "*")
		}
		args = append(args, filepath.Join(dir, a))
	}
	return args, fuzzFPS[next()%len(fuzzFPS)]
}

// fuzzContent is a small valid file of the format name's extension names:
// a triangle lifted to height z (four vertices when quad), or a point
// cache of int(z)%3+1 frames of a triangle.
func fuzzContent(t *testing.T, name string, z float64, quad bool) []byte {
	verts := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, z}}
	polys := [][]int{{0, 1, 2}}
	if quad {
		verts = append(verts, linalg.Vec3{1, 1, z})
		polys = [][]int{{0, 1, 3, 2}}
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]linalg.Vec3
	for f := 0; f <= int(z)%3; f++ {
		frames = append(frames, []linalg.Vec3{{0, 0, float64(f)}, {1, 0, 0}, {0, 1, 0}})
	}
	var buf bytes.Buffer
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".obj"), strings.HasSuffix(lower, ".txt"):
		err = obj.Write(&buf, m)
	case strings.HasSuffix(lower, ".obj.gz"):
		zw := gzip.NewWriter(&buf)
		if err = obj.Write(zw, m); err == nil {
			err = zw.Close()
		}
	case strings.HasSuffix(lower, ".off"):
		buf.WriteString("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 1\n3 0 1 2\n")
	case strings.HasSuffix(lower, ".pc2"):
		err = pc2.Write(&buf, frames)
	case strings.HasSuffix(lower, ".mdd"):
		err = mdd.Write(&buf, frames, 30)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzLoad builds a folder from the layout bytes (see fuzzTree) and hands
// format.Load the arguments it names — folders, globs, loose files, caches,
// scenes, missing paths — with rest as --rest ("frame:K", a file in the
// folder, or "") and frames as --frames. Load must not panic; it returns a
// clear error (a parse error naming its file) or a valid sequence with
// no more frames per clip than --frames keeps, whose --rest frame:K is
// frame K, and whose files were all read from the folder.
func FuzzLoad(f *testing.F) {
	type file struct{ dir, stem, ext, kind, z byte }
	type arg struct{ kind, i byte }
	// layout encodes files and arguments for fuzzTree (indices into its
	// tables) and a frame rate (an index into fuzzFPS).
	layout := func(files []file, args []arg, fps byte) []byte {
		out := []byte{byte(len(files) - 1)}
		for _, f := range files {
			out = append(out, f.dir, f.stem, f.ext, f.kind, f.z)
		}
		out = append(out, byte(len(args)-1))
		for _, a := range args {
			out = append(out, a.kind, a.i)
		}
		return append(out, fps)
	}
	objs := func(n int, more ...file) []file { // frame-1, -2, -10.obj, then more
		return append([]file{{0, 0, 0, 0, 1}, {0, 1, 0, 0, 2}, {0, 2, 0, 0, 3}}[:n], more...)
	}
	for _, seed := range []struct {
		layout []byte
		rest   string
		frames string
		extra  []byte
	}{
		{layout(objs(1), []arg{{1, 0}}, 0), "", "", nil},                                                   // one file
		{layout(objs(3), []arg{{0, 0}}, 1), "frame:2", "", nil},                                            // a folder, its second frame as rest
		{layout(objs(2, file{1, 3, 0, 0, 0}), []arg{{2, 0}}, 0), "a/rest.obj", "", nil},                    // a glob, --rest a file
		{layout([]file{{1, 3, 0, 0, 0}, {1, 0, 4, 0, 2}}, []arg{{1, 0}, {1, 1}}, 0), "", "", nil},          // rest.obj beside a point cache
		{layout([]file{{1, 3, 0, 0, 0}, {1, 0, 5, 0, 1}}, []arg{{1, 1}}, 2), "a/rest.obj", "", nil},        // an MDD, --rest a file
		{layout([]file{{2, 0, 0, 0, 1}, {2, 1, 3, 0, 2}, {2, 4, 2, 0, 0}}, []arg{{0, 2}}, 0), "", "", nil}, // .obj.gz and Reference.off in a folder
		{layout(objs(2, file{1, 0, 0, 1, 0}), []arg{{0, 0}, {0, 1}}, 0), "", "", nil},                      // two folders, a quad in one
		{layout([]file{{0, 0, 6, 2, 0}}, []arg{{1, 0}}, 0), "frame:1", "", []byte("glTF\x02\x00\x00\x00")}, // a broken GLB
		{layout(objs(2), []arg{{0, 0}}, 0), "frame:0", "", nil},                                            // no frame 0
		{layout(objs(3), []arg{{0, 0}}, 0), "frame:1", "2:3", nil},                                         // frames 2 and 3, the first of them as rest
		{layout([]file{{1, 3, 0, 0, 0}, {1, 0, 4, 0, 2}}, []arg{{1, 0}, {1, 1}}, 0), "", "3:", nil},        // the last frame of a cache
		{layout(objs(3), []arg{{0, 0}}, 0), "", "4:9", nil},                                                // past the end
		{layout([]file{{0, 5, 0, 0, 0}, {0, 6, 0, 0, 1}}, []arg{{2, 8}, {3, 0}}, 0), "", "", nil},          // names with glob characters, a missing file
	} {
		f.Add(seed.layout, seed.rest, seed.frames, seed.extra)
	}
	f.Fuzz(func(t *testing.T, layout []byte, rest, frames string, extra []byte) {
		if len(layout) > 64 || len(extra) > 1<<12 {
			return
		}
		var keep format.FrameRange
		if frames != "" {
			var err error
			if keep, err = format.ParseFrameRange(frames); err != nil {
				if err.Error() == "" {
					t.Fatalf("--frames %q: empty error", frames)
				}
				return
			}
		}
		dir := t.TempDir()
		args, fps := fuzzTree(t, dir, layout, extra)
		opt := format.LoadOptions{Rest: rest, FPS: fps, Frames: keep}
		if rest != "" && !strings.HasPrefix(rest, "frame:") {
			if !filepath.IsLocal(rest) {
				return // keep every read inside dir
			}
			opt.Rest = filepath.Join(dir, rest)
		}
		in, err := format.Load(args, opt)
		if err != nil {
			msg := err.Error()
			if msg == "" || strings.Contains(msg, "%!") {
				t.Fatalf("unclear error %q", msg)
			}
			var pe *format.ParseError
			if errors.As(err, &pe) && pe.File == "" {
				t.Fatalf("parse error names no file: %v", err)
			}
			return
		}
		s := in.Sequence
		if err := s.Validate(); err != nil {
			t.Fatalf("invalid sequence: %v", err)
		}
		for _, c := range s.Clips {
			if !(c.FPS > 0) || math.IsInf(c.FPS, 0) {
				t.Fatalf("clip %q at %v fps accepted", c.Name, c.FPS)
			}
			if keep.Last > 0 && c.Len() > keep.Last-max(keep.First, 1)+1 {
				t.Fatalf("--frames %s kept %d frames of clip %q", frames, c.Len(), c.Name)
			}
		}
		if k, ok := strings.CutPrefix(rest, "frame:"); ok {
			f, err := strconv.Atoi(k)
			if err != nil || f < 1 || f > s.F() {
				t.Fatalf("--rest %s accepted for %d frames", rest, s.F())
			}
			for i, v := range s.Rest.Verts {
				if v != s.FrameInto(nil, f-1)[i] {
					t.Fatalf("--rest %s: vertex %d at %v, frame %d has it at %v", rest, i, v, f, s.Frame(f - 1)[i])
				}
			}
		}
		if len(in.Files) == 0 {
			t.Fatal("no file listed as read")
		}
		for _, name := range in.Files {
			if rel, err := filepath.Rel(dir, name); err != nil || !filepath.IsLocal(rel) {
				t.Fatalf("read %s, outside %s", name, dir)
			}
			if st, err := os.Stat(name); err != nil || !st.Mode().IsRegular() {
				t.Fatalf("listed %s as read: %v", name, err)
			}
		}
	})
}
