package mdd

import (
	"bytes"
	"os"
	"runtime"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// BenchmarkReadTiny reads the 3-frame, 3-point test cache: what one fuzz
// execution costs.
func BenchmarkReadTiny(b *testing.B) {
	data, err := os.ReadFile("testdata/tiny.mdd")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(data), 3); err != nil {
			b.Fatal(err)
		}
	}
}

// lying returns a cache whose header announces a million frames of 3
// points, followed by one frame's time.
func lying() []byte { return []byte{0, 0x0f, 0x42, 0x40, 0, 0, 0, 3, 0, 0, 0, 0} }

// BenchmarkReadLying reads lying(): the reader must not trust the count.
func BenchmarkReadLying(b *testing.B) {
	data := lying()
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(data), 3); err == nil {
			b.Fatal("a truncated cache read")
		}
	}
}

// BenchmarkReadLarge reads 300 frames of 10,000 points (36 MB).
func BenchmarkReadLarge(b *testing.B) {
	frames := make([][]linalg.Vec3, 300)
	for f := range frames {
		frames[f] = make([]linalg.Vec3, 10000)
		for i := range frames[f] {
			frames[f][i] = linalg.Vec3{float64(i), float64(f), 1}
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, frames, 30); err != nil {
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
	tiny, err := os.ReadFile("testdata/tiny.mdd")
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
