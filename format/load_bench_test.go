//go:build unix

package format_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/mdd"
	"github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// benchRig is a generated biped of about 16k vertices and 60 frames,
// made once per run.
var benchRig = sync.OnceValues(func() (*rig.Rig, error) {
	return character.Generate(character.Biped, character.Options{Vertices: 16000, Frames: 60})
})

// benchDir writes benchRig as meshrig gen writes it (rest.obj, and
// frames/frame-0001.obj …, uncompressed) plus the same frames as
// anim.pc2 and anim.mdd, into a temporary folder.
func benchDir(b *testing.B) string {
	r, err := benchRig()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	write := func(name string, w func(io.Writer) error) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		if err := w(f); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "frames"), 0o755); err != nil {
		b.Fatal(err)
	}
	write("rest.obj", func(w io.Writer) error { return obj.Write(w, r.Mesh) })
	var frames [][]linalg.Vec3
	for f := 0; f < r.Clips[0].Frames; f++ {
		v := r.Frame(nil, 0, f)
		frames = append(frames, v)
		write(filepath.Join("frames", fmt.Sprintf("frame-%04d.obj", f+1)), func(w io.Writer) error {
			return obj.Write(w, r.Mesh.WithVerts(v))
		})
	}
	write("anim.pc2", func(w io.Writer) error { return pc2.Write(w, frames) })
	write("anim.mdd", func(w io.Writer) error { return mdd.Write(w, frames, 30) })
	return dir
}

// BenchmarkLoadOBJFrames loads the folder of 60 OBJ frames with the rest
// mesh given: MB/s of frame text (the target: 150 MB/s on 2 cores).
func BenchmarkLoadOBJFrames(b *testing.B) {
	dir := benchDir(b)
	files, _ := filepath.Glob(filepath.Join(dir, "frames", "*.obj"))
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	b.SetBytes(size)
	cpu0 := cpuTime()
	for b.Loop() {
		in, err := format.Load([]string{filepath.Join(dir, "frames")}, format.LoadOptions{Rest: filepath.Join(dir, "rest.obj")})
		if err != nil {
			b.Fatal(err)
		}
		if in.Sequence.F() != len(files) {
			b.Fatalf("%d frames", in.Sequence.F())
		}
	}
	// Text per second of CPU time (all threads): what one free core
	// parses, however busy the machine is.
	b.ReportMetric(float64(size)*float64(b.N)/1e6/(cpuTime()-cpu0).Seconds(), "MB/cpu-s")
}

// cpuTime is the process's user + system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchCache reads a point cache file as format.Load does (buffered,
// through the format's Cache reader), for MB/s beside BenchmarkReadRaw.
func benchCache(b *testing.B, name string, read func(io.Reader, int) ([]linalg.Vec3f, float64, error)) {
	dir := benchDir(b)
	rest, err := format.ReadMesh(filepath.Join(dir, "rest.obj"))
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, name)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := read(bufio.NewReaderSize(f, 1<<16), len(rest.Verts)); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

func BenchmarkReadPC2(b *testing.B) { benchCache(b, "anim.pc2", pc2.Read) }
func BenchmarkReadMDD(b *testing.B) { benchCache(b, "anim.mdd", mdd.Read) }

// BenchmarkReadRaw copies the PC2 file to nowhere: the speed of the disk
// (here, the page cache) that the cache readers compare with.
func BenchmarkReadRaw(b *testing.B) {
	benchCache(b, "anim.pc2", func(r io.Reader, _ int) ([]linalg.Vec3f, float64, error) {
		_, err := io.Copy(io.Discard, r)
		return nil, 0, err
	})
}
