package pc2

import (
	"bytes"
	"os"
	"runtime"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// BenchmarkReadTiny reads the 2-sample, 3-point test cache: what one
// fuzz execution costs (issue 12: 88 KiB cleared per call).
func BenchmarkReadTiny(b *testing.B) {
	data, err := os.ReadFile("testdata/tiny.pc2")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(data), 3); err != nil {
			b.Fatal(err)
		}
	}
}

// lying returns a cache whose header announces a million samples of 3
// points, followed by one.
func lying() []byte {
	var buf bytes.Buffer
	if err := Write(&buf, [][]linalg.Vec3{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}); err != nil {
		panic(err)
	}
	data := buf.Bytes()
	data[28], data[29], data[30], data[31] = 0x40, 0x42, 0x0f, 0 // 1,000,000
	return data
}

// BenchmarkReadLying reads lying(): the reader must not trust the count.
func BenchmarkReadLying(b *testing.B) {
	data := lying()
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(data), 3); err == nil {
			b.Fatal("a truncated cache read")
		}
	}
}

// BenchmarkReadLarge reads 300 samples of 10,000 points (36 MB).
func BenchmarkReadLarge(b *testing.B) {
	frames := make([][]linalg.Vec3, 300)
	for f := range frames {
		frames[f] = make([]linalg.Vec3, 10000)
		for i := range frames[f] {
			frames[f][i] = linalg.Vec3{float64(i), float64(f), 1}
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, frames); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(data), 10000); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMemoryFollowsData: a read allocates in proportion to the data the
// file holds, not to the count its header claims (it cleared a 64 KiB
// buffer and a 1024-frame slice on every call, whatever the file).
func TestMemoryFollowsData(t *testing.T) {
	tiny, err := os.ReadFile("testdata/tiny.pc2")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"tiny": tiny, "lying": lying()} {
		per := bytesPerCall(func() { Read(bytes.NewReader(data), 3) })
		if per > 2048 {
			t.Errorf("%s (%d bytes): %.0f bytes allocated per read, want under 2048", name, len(data), per)
		}
	}
}

// bytesPerCall returns the bytes f allocates per call, over 100 calls.
func bytesPerCall(f func()) float64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 100 {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / 100
}
