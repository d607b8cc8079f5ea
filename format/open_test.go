package format_test

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// TestReadSceneGzip: a compressed glTF reads as the plain one, with its
// uncompressed buffer beside it, and both files listed.
func TestReadSceneGzip(t *testing.T) {
	gltf, bin := sceneWithBuffer(t)
	data, err := os.ReadFile(gltf)
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(filepath.Dir(gltf), "packed.gltf.gz")
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write(data)
	zw.Close()
	f.Close()
	plain, err := format.ReadScene(gltf, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	packed, err := format.ReadScene(gz, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain.Sequence.Frames, packed.Sequence.Frames) || plain.Sequence.F() == 0 {
		t.Error("the compressed file reads differently")
	}
	if !slices.Equal(packed.Files, []string{gz, bin}) {
		t.Errorf("Files %q, want %q", packed.Files, []string{gz, bin})
	}
}
