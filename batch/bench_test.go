package batch

import (
	"testing"

	"github.com/meshrig/meshrig/internal/shareddata"
)

// BenchmarkPrepare is what batch spends on an item before its child
// starts: horse-gallop's 49 gzipped OBJ files listed, hashed (Digest)
// and sized (Measure reads one frame).
func BenchmarkPrepare(b *testing.B) {
	it := Item{ID: "horse", Inputs: []string{shareddata.Path(b, "sequences/horse-gallop")}}
	files, err := it.Files()
	if err != nil {
		b.Fatal(err)
	}
	var bytes int64
	for _, f := range files {
		if _, n, err := fileSum(f); err == nil {
			bytes += n
		}
	}
	b.SetBytes(bytes)
	for b.Loop() {
		files, err := it.Files()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Digest(files); err != nil {
			b.Fatal(err)
		}
		if s := it.Measure(files); s.Vertices != 8431 || s.Frames != 48 {
			b.Fatalf("size %+v", s)
		}
	}
}
