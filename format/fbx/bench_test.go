package fbx

import (
	"bytes"
	"os"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
)

// BenchmarkDecode decodes Decomposition_20.fbx's node records (645 KB,
// zlib arrays) — MB/s of file.
func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile(shareddata.Path(b, "dembones/Decomposition_20.fbx"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadScene reads Decomposition_20.fbx whole: 400 frames sampled
// with every influence and the rig's clip.
func BenchmarkReadScene(b *testing.B) {
	path := shareddata.Path(b, "dembones/Decomposition_20.fbx")
	for b.Loop() {
		if _, err := format.ReadScene(path, format.SceneOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite writes a skinned tube of 978 vertices, 3 joints and 240
// frames.
func BenchmarkWrite(b *testing.B) {
	r := testrig.Tube(b, 240, [3]float64{})
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
