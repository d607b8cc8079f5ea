package abc

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
)

// BenchmarkReadBoneAnim reads Maya's cache whole (open, every frame into
// a sequence) from memory: MB/s of the file.
func BenchmarkReadBoneAnim(b *testing.B) {
	data := realBytes(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	t0 := cpuTime()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), int64(len(data)), Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, t0, int64(len(data)))
}

// reportCPU adds MB per CPU second since t0, when CPU time is measured.
func reportCPU(b *testing.B, t0 time.Duration, size int64) {
	if d := cpuTime() - t0; t0 > 0 && d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/d.Seconds()/1e6, "MB/cpu-s")
	}
}

// BenchmarkReadBoneAnimFile reads it from its file, as meshrig does.
func BenchmarkReadBoneAnimFile(b *testing.B) {
	f, err := os.Open(shareddata.Path(b, boneAnim))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b.SetBytes(st.Size())
	t0 := cpuTime()
	for b.Loop() {
		if _, err := Read(f, st.Size(), Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, t0, st.Size())
}

// bigCache writes a cache of n vertices (a grid of quads) × frames
// samples at 24 fps into dir, P rippling over time, and returns its path.
func bigCache(tb testing.TB, dir string, side, frames int) string {
	n := side * side
	var counts, indices []int32
	for y := 0; y+1 < side; y++ {
		for x := 0; x+1 < side; x++ {
			v := int32(y*side + x)
			counts = append(counts, 4)
			indices = append(indices, v+int32(side), v+int32(side)+1, v+1, v) // clockwise
		}
	}
	buf := make([]float32, 3*n)
	gen := func(i int) []byte {
		t := float64(i) / 24
		for k := 0; k < n; k++ {
			x, y := float64(k%side)/float64(side), float64(k/side)/float64(side)
			buf[3*k], buf[3*k+1] = float32(x), float32(y)
			buf[3*k+2] = float32(0.05 * math.Sin(6*x+t) * math.Cos(4*y-t))
		}
		return f32s(buf...)
	}
	m := &tobj{name: "grid", meta: "schema=AbcGeom_PolyMesh_v1", props: []*tprop{{name: ".geom", kind: Compound, props: []*tprop{
		{name: "P", kind: Array, pod: Float32, extent: 3, sampling: 1, gen: gen, n: frames},
		{name: ".faceIndices", kind: Array, pod: Int32, extent: 1, samples: [][]byte{i32s(indices...)}},
		{name: ".faceCounts", kind: Array, pod: Int32, extent: 1, samples: [][]byte{i32s(counts...)}},
	}}}}
	ts := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 1.0 / 24, Times: []float64{0}, MaxSamples: frames}}
	path := filepath.Join(dir, "big.abc")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	root, err := writeArchiveTo(w, ts, "", []*tobj{m})
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		_, err = f.WriteAt(header(root), 0)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkReadBig reads every position of a 100k-vertex × 1000-frame
// cache (1.2 GB, written to a temporary folder first) sample by sample
// into one reused buffer: the reader's speed without holding the 1.2 GB
// of float32 frames a sequence would. It is
// opt-in: set MESHRIG_ABC_BIG=1 (writing the file takes a while).
func BenchmarkReadBig(b *testing.B) {
	if os.Getenv("MESHRIG_ABC_BIG") == "" {
		b.Skip("set MESHRIG_ABC_BIG=1 to write and read a 1.2 GB cache")
	}
	path := bigCache(b, b.TempDir(), 317, 1000) // 100,489 vertices
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b.SetBytes(st.Size())
	var dst []linalg.Vec3
	t0 := cpuTime()
	for b.Loop() {
		a, err := Open(f, st.Size())
		if err != nil {
			b.Fatal(err)
		}
		m, err := a.PolyMesh(a.Find("/grid"))
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < m.Samples; i++ {
			if dst, err = a.Positions(m, i, dst); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, t0, st.Size())
}

// TestBigCacheShape reads a small cache of the benchmark's kind back: the
// writer the benchmark uses makes what the reader expects.
func TestBigCacheShape(t *testing.T) {
	path := bigCache(t, t.TempDir(), 20, 5)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	sc, err := Read(f, st.Size(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := sc.Sequence
	if s.N() != 400 || s.F() != 5 || s.Rest.NumPolys() != 19*19 || s.Clips[0].FPS != 24 {
		t.Fatalf("%d vertices, %d frames, %d polygons at %v fps; want 400, 5, 361, 24", s.N(), s.F(), s.Rest.NumPolys(), s.Clips[0].FPS)
	}
	if v := signedArea(s.Rest.Verts, s.Rest.Poly(0)); !(v > 0) {
		t.Errorf("the first quad's area seen from +z is %v, want positive (counter-clockwise)", v)
	}
}

// signedArea is a polygon's area seen from +z, positive counter-clockwise.
func signedArea(v []linalg.Vec3, p []int) float64 {
	a := 0.0
	for k := range p {
		p0, p1 := v[p[k]], v[p[(k+1)%len(p)]]
		a += p0[0]*p1[1] - p1[0]*p0[1]
	}
	return a / 2
}
