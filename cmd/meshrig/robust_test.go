//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/linalg"
)

// fixture is a folder of inputs every robustness case runs in: a short
// generated animation with its rest pose and true rig, a rig made from
// it, a libigl skeleton, a glTF with a side buffer, and bad files. Cases
// write into out/.
type fixture struct{ dir string }

func newFixture(t *testing.T) fixture {
	t.Helper()
	dir := t.TempDir()
	if _, err := run(t, "gen", "snake", "-o", filepath.Join(dir, "seq"), "--frames", "8", "--vertices", "800"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "rig", filepath.Join(dir, "seq"), "-o", filepath.Join(dir, "rig.glb"), "--iterations", "3"); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(dir, "seq", "rest.obj"), filepath.Join(dir, "rest.obj"))
	copyFile(t, filepath.Join(dir, "seq", "rest.obj"), filepath.Join(dir, "mesh.obj"))
	write(t, filepath.Join(dir, "truth.tgf"), "1 0 0 0\n2 0 1 0\n#\n1 2\n#\n")
	os.Mkdir(filepath.Join(dir, "ext"), 0o755)
	for _, n := range []string{"external.gltf", "external.bin"} {
		copyFile(t, filepath.Join("..", "..", "format", "gltf", "testdata", n), filepath.Join(dir, "ext", n))
	}
	if err := os.Symlink(filepath.Join(dir, "seq", "frame-0001.obj"), filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	os.Mkdir(filepath.Join(dir, "out.glb"), 0o755)
	// Unbounded work: keys to 10⁶ s, unevenly spaced (so sampled at 30 fps).
	write(t, filepath.Join(dir, "long.gltf"), longGLTF("data:application/octet-stream;base64,"+base64.StdEncoding.EncodeToString(longBuffer())))
	// One face of 120,000 corners.
	var big strings.Builder
	const corners = 120000
	for i := 0; i < corners; i++ {
		a := 2 * math.Pi * float64(i) / corners
		fmt.Fprintf(&big, "v %.7f %.7f 0\n", math.Cos(a), math.Sin(a))
	}
	big.WriteString("f")
	for i := 1; i <= corners; i++ {
		fmt.Fprintf(&big, " %d", i)
	}
	write(t, filepath.Join(dir, "bigface.obj"), big.String()+"\n")
	// A glTF whose buffer is a named pipe, and a mesh that is one.
	os.Mkdir(filepath.Join(dir, "pipe"), 0o755)
	write(t, filepath.Join(dir, "pipe", "p.gltf"), longGLTF("pipe.bin"))
	for _, p := range []string{filepath.Join(dir, "pipe", "pipe.bin"), filepath.Join(dir, "fifo.obj")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("no named pipes here:", err)
		}
	}
	// A point cache cut short, beside its rest mesh.
	os.Mkdir(filepath.Join(dir, "cache"), 0o755)
	copyFile(t, filepath.Join(dir, "seq", "rest.obj"), filepath.Join(dir, "cache", "rest.obj"))
	write(t, filepath.Join(dir, "cache", "short.pc2"), string(pc2Header(800, 3)))
	in, err := format.Load([]string{filepath.Join(dir, "seq")}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]linalg.Vec3
	for f := 0; f < in.Sequence.F(); f++ {
		frames = append(frames, in.Sequence.FrameInto(nil, f))
	}
	var pc bytes.Buffer
	if err := pc2.Write(&pc, frames); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "cache", "good.pc2"), pc.String())
	return fixture{dir}
}

// longBuffer holds a triangle, key times 0, 1 and 10⁶ s and three
// translations.
func longBuffer() []byte {
	var b []byte
	put := func(v ...float32) {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	put(0, 0, 0, 1, 0, 0, 0, 1, 0) // positions, 36 bytes
	put(0, 1, 1e6)                 // times, 12 bytes
	put(0, 0, 0, 1, 0, 0, 2, 0, 0) // translations, 36 bytes
	return b
}

func longGLTF(uri string) string {
	return `{"asset":{"version":"2.0"},"buffers":[{"uri":"` + uri + `","byteLength":84}],
"bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":12},{"buffer":0,"byteOffset":48,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
{"bufferView":1,"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[1000000]},
{"bufferView":2,"componentType":5126,"count":3,"type":"VEC3"}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0,
"animations":[{"samplers":[{"input":1,"output":2}],"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}]}`
}

// pc2Header is a PC2 header promising frames of n points, and no data.
func pc2Header(n, frames int) []byte {
	b := append([]byte("POINTCACHE2\x00"), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[12:], 1)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(0))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(1))
	return binary.LittleEndian.AppendUint32(b, uint32(frames))
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(b))
}

// snapshot maps every regular file under dir to a digest of its bytes;
// named pipes and links are listed by name.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			m[rel+"/"] = "folder"
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = fmt.Sprintf("%x", sha256.Sum256(b))
		default:
			m[rel] = d.Type().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// robustCase is one command line and how it must end.
type robustCase struct {
	item string   // the issue item it checks
	args []string // run in the fixture's folder
	code int      // exit status
	want string   // in the message (stderr), or stdout when code is 0
	// writes lists the outputs a successful run leaves; every other case
	// must leave the fixture exactly as it was.
	writes []string
}

// robustCases are bad inputs and option combinations, each refused before
// any work with a message that says what is wrong, and the good runs
// beside them. A nonexistent input ("nope") shows that a refusal comes
// before anything is read.
var robustCases = []robustCase{
	// Data loss: nothing a command reads is overwritten.
	{"1", []string{"eval", "rig.glb", "seq", "--report", "seq/frame-0001.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"eval", "rig.glb", "seq", "--report", "seq/rest.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"eval", "rig.glb", "seq", "--rest", "rest.obj", "--report", "rest.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"eval", "rig.glb", "seq", "--report", "rig.glb"}, 1, "overwrite an input", nil},
	{"1", []string{"eval", "rig.glb", "seq", "--truth", "seq/truth.glb", "--report", "seq/truth.glb"}, 1, "overwrite an input", nil},
	{"1", []string{"eval", "rig.glb", "seq", "--truth", "truth.tgf", "--report", "truth.tgf"}, 1, "overwrite an input", nil},
	{"1", []string{"eval", "rig.glb", "seq", "--report", "link.json"}, 1, "overwrite an input", nil},
	{"1", []string{"skeletonize", "mesh.obj", "-o", "out/w.glb", "--truth", "truth.tgf", "--report", "truth.tgf"}, 1, "overwrite an input", nil},
	{"1", []string{"skeletonize", "mesh.obj", "-o", "out/w.glb", "--report", "mesh.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "seq", "-o", "out/a.glb", "--report", "seq/frame-0003.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "seq", "-o", "out/a.glb", "--rest", "rest.obj", "--report", "rest.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "seq/frame-*.obj", "-o", "out/a.glb", "--report", "seq/frame-0002.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "seq/frame-0001.obj", "seq/frame-0002.obj", "-o", "out/a.glb", "--report", "seq/frame-0002.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "seq/truth.glb", "-o", "seq/truth.glb"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "ext/external.gltf", "-o", "out/a.glb", "--report", "ext/external.bin"}, 1, "overwrite an input", nil},
	{"1", []string{"skeletonize", "ext/external.gltf", "-o", "out/a.glb", "--report", "ext/external.bin"}, 1, "overwrite an input", nil},
	{"1", []string{"bench", "seq", "--json", "seq/frame-0001.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "cache/good.pc2", "cache/rest.obj", "-o", "out/a.glb", "--report", "cache/rest.obj"}, 1, "overwrite an input", nil},
	{"1", []string{"rig", "cache/good.pc2", "--rest", "rest.obj", "-o", "out/a.glb", "--report", "cache/good.pc2"}, 1, "overwrite an input", nil},
	{"2", []string{"rig", "seq", "-o", "out/a.glb", "--report", "out/a.glb"}, 1, "same file", nil},
	{"2", []string{"rig", "seq", "-o", "out/a.glb", "--report", "out/../out/a.glb"}, 1, "same file", nil},
	{"2", []string{"skeletonize", "mesh.obj", "-o", "out/a.glb", "--report", "out/a.glb"}, 1, "same file", nil},
	{"3", []string{"gen", "snake", "-o", "rest.obj"}, 1, "is a file", nil},
	{"3", []string{"demo", "-o", "rest.obj"}, 1, "is a file", nil},
	{"3", []string{"render", "rig.glb", "-o", "rig.glb"}, 1, ".png", nil},

	// Unbounded work.
	{"4", []string{"info", "long.gltf"}, 1, "--fps", nil},
	{"4", []string{"rig", "long.gltf", "-o", "out/a.glb"}, 1, "--frames", nil},
	{"4", []string{"info", "long.gltf", "--frames", "1:100"}, 0, "frames      100", nil},
	{"5", []string{"skeletonize", "mesh.obj", "--method", "contraction", "--joints", "1000000", "-o", "out/a.glb"}, 1, "--joints 1000000", nil},
	{"5", []string{"skeletonize", "mesh.obj", "--method", "contraction", "--joints", "4000", "-o", "out/a.glb"}, 1, "joints", nil},
	{"6", []string{"info", "bigface.obj"}, 0, "vertices    120000", nil},
	{"7", []string{"info", "pipe/p.gltf"}, 1, "not a regular file", nil},
	{"7", []string{"rig", "fifo.obj", "-o", "out/a.glb"}, 1, "not a regular file", nil},
	{"7", []string{"info", "seq", "--rest", "fifo.obj"}, 1, "not a regular file", nil},

	// Bad numbers, refused before the input is read.
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--fps", "NaN"}, 1, "--fps", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--fps", "Inf"}, 1, "--fps", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.dae", "--fps", "1e-300"}, 1, "--fps", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--fps", "-1"}, 1, "--fps", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--bones", "-1"}, 1, "--bones", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--bones", "0"}, 1, "leave --bones out for the automatic count", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--bones", "5000"}, 1, "--bones 5000: want 1 to 4096", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--init-bones", "-5"}, 1, "--init-bones", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--iterations", "-1"}, 1, "--iterations", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--lloyd", "-1"}, 1, "--lloyd", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--tolerance", "NaN"}, 1, "--tolerance", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--tolerance", "-1"}, 1, "--tolerance", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--max-influences", "5"}, 1, "--max-influences", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--method", "magic"}, 1, "--method", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--collada", "2"}, 1, "--collada", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--search", "fastest"}, 1, "--search", nil},
	{"10", []string{"rig", "nope", "-o", "out/a.glb", "--fast", "--search", "full"}, 1, "--fast", nil},
	{"10", []string{"eval", "nope.glb", "seq", "--fps", "Inf"}, 1, "--fps", nil},
	{"10", []string{"info", "nope", "--fps", "NaN"}, 1, "--fps", nil},
	{"10", []string{"bench", "nope", "--bones", "-3"}, 1, "--bones", nil},
	{"10", []string{"skeletonize", "nope.obj", "-o", "out/a.glb", "--voxel-size", "NaN"}, 1, "--voxel-size", nil},
	{"10", []string{"skeletonize", "nope.obj", "-o", "out/a.glb", "--joints", "-2"}, 1, "--joints", nil},
	{"10", []string{"render", "nope.glb", "-o", "out/a.png", "--frame", "0"}, 1, "--frame", nil},
	{"10", []string{"render", "nope.glb", "-o", "out/a.png", "--width", "0"}, 1, "--width", nil},
	{"10", []string{"render", "nope.glb", "-o", "out/a.png", "--elevation", "NaN"}, 1, "--elevation", nil},
	{"10", []string{"gen", "snake", "-o", "out/g", "--frames", "0"}, 1, "--frames", nil},
	{"10", []string{"gen", "snake", "-o", "out/g", "--vertices", "-1"}, 1, "--vertices", nil},

	// Outputs checked before the work.
	{"11", []string{"rig", "nope", "-o", "out/x.obj"}, 1, "does not write obj", nil},
	{"11", []string{"rig", "nope", "-o", "out/x.glb.gz"}, 1, "compressed", nil},
	{"11", []string{"rig", "nope", "-o", "missing/x.glb"}, 1, "does not exist", nil},
	{"11", []string{"rig", "nope", "-o", "/proc/x.glb"}, 1, "cannot write", nil},
	{"11", []string{"rig", "nope", "-o", "out.glb"}, 1, "is a folder", nil},
	{"11", []string{"rig", "nope", "-o", "out/a.glb", "--report", "/proc/r.json"}, 1, "--report /proc/r.json", nil},
	{"11", []string{"rig", "nope", "-o", "out/a.glb", "--report", "missing/r.json"}, 1, "does not exist", nil},
	{"11", []string{"rig", "nope", "-o", "out/a.glb", "--report", "fifo.obj"}, 1, "not a regular file", nil},
	{"11", []string{"skeletonize", "nope.obj", "-o", "out/x.obj"}, 1, "does not write obj", nil},
	{"11", []string{"render", "nope.glb", "-o", "out/x.jpg"}, 1, "PNG", nil},
	{"11", []string{"eval", "nope.glb", "seq", "--report", "missing/r.json"}, 1, "does not exist", nil},
	{"11", []string{"bench", "nope", "--json", "missing/r.json"}, 1, "does not exist", nil},
	{"11", []string{"rig", "seq", "-o", "out/s.gltf", "--iterations", "2"}, 0, "RMSE%", []string{"out/s.gltf"}},

	// Messages name the file.
	{"12", []string{"rig", "cache/short.pc2", "cache/rest.obj", "-o", "out/a.glb"}, 1, "short.pc2", nil},

	// Good runs beside them.
	{"ok", []string{"rig", "seq", "-o", "out/s.glb", "--report", "out/s.json", "--iterations", "2"}, 0, "RMSE%", []string{"out/s.glb", "out/s.json"}},
	{"ok", []string{"eval", "rig.glb", "seq", "--report", "out/e.json"}, 0, "RMSE%", []string{"out/e.json"}},
	{"ok", []string{"skeletonize", "mesh.obj", "-o", "out/m.dae", "--report", "out/m.json", "--truth", "truth.tgf"}, 0, "joint error%", []string{"out/m.dae", "out/m.json"}},
	{"ok", []string{"render", "rig.glb", "-o", "out/r.png", "--frame", "2"}, 0, "", []string{"out/r.png"}},
	{"ok", []string{"rig", "cache/good.pc2", "cache/rest.obj", "-o", "out/c.glb", "--iterations", "2"}, 0, "RMSE%", []string{"out/c.glb"}},
}

// TestRobustTable runs every case as the real command and checks its exit
// status and message, that no input changed and that a refused run
// leaves no output, and logs each row with its peak memory (go test -v).
func TestRobustTable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command ~80 times")
	}
	fx := newFixture(t)
	t.Logf("%-4s %-4s %8s  %-5s %-5s  %s", "item", "exit", "peak MB", "input", "left", "command → message")
	for _, c := range robustCases {
		before := snapshot(t, fx.dir)
		p := runMain(t, fx.dir, c.args...)
		after := snapshot(t, fx.dir)
		intact, left := true, []string{}
		for k, v := range before {
			if after[k] != v {
				intact = false
			}
		}
		for k := range after {
			if _, ok := before[k]; !ok {
				left = append(left, k)
			}
		}
		msg := strings.TrimSpace(p.stderr)
		if c.code == 0 {
			msg = strings.TrimSpace(p.stdout)
		}
		t.Logf("%-4s %-4d %8.0f  %-5v %-5v  meshrig %s → %s", c.item, p.code, p.peakMB, intact, len(left) > 0,
			strings.Join(c.args, " "), lastLine(msg))
		switch {
		case p.code != c.code:
			t.Errorf("meshrig %s: exit %d, want %d: %s", strings.Join(c.args, " "), p.code, c.code, p.stderr)
		case !strings.Contains(msg, c.want):
			t.Errorf("meshrig %s: message %q lacks %q", strings.Join(c.args, " "), msg, c.want)
		case c.code != 0 && (strings.Contains(msg, "panic") || strings.Count(msg, "\n") > 0):
			t.Errorf("meshrig %s: message is not one line: %q", strings.Join(c.args, " "), msg)
		}
		if !intact {
			t.Errorf("meshrig %s changed an input", strings.Join(c.args, " "))
		}
		if !sameSet(left, c.writes) {
			t.Errorf("meshrig %s left %v, want %v", strings.Join(c.args, " "), left, c.writes)
		}
		if c.code != 0 && p.peakMB > 400 {
			t.Errorf("meshrig %s: refused after holding %.0f MB", strings.Join(c.args, " "), p.peakMB)
		}
		for _, w := range c.writes {
			os.Remove(filepath.Join(fx.dir, w))
		}
	}
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	for _, x := range b {
		if !in[x] {
			return false
		}
	}
	return true
}
