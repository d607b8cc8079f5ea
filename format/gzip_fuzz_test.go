package format_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// gzExts are the formats FuzzGzip reads compressed, by the low two bits
// of its mode byte.
var gzExts = []string{".obj", ".off", ".glb", ".gltf"}

// gzipped compresses data.
func gzipped(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAny reads a mesh file with ReadMesh, a scene file with ReadScene,
// returning the mesh (the scene's rest pose) and its frames.
func readAny(path string) (*mesh.Mesh, []linalg.Vec3, error) {
	f, _, err := format.ByPath(path)
	if err != nil {
		return nil, nil, err
	}
	if f.Scene == nil {
		m, err := format.ReadMesh(path)
		return m, nil, err
	}
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		return nil, nil, err
	}
	if sc.Sequence == nil {
		return sc.Mesh, nil, nil
	}
	return sc.Mesh, sc.Sequence.Frames64(), nil
}

// FuzzGzip reads fuzz bytes through format.ReadMesh and format.ReadScene
// as x.obj.gz, x.off.gz, x.glb.gz or x.gltf.gz (mode's low two bits). With
// mode bit 2 clear the bytes are the compressed file itself: a reader
// must not panic and its error names the file. With the bit set they are
// compressed first, and the .gz file must read exactly as the same bytes
// uncompressed do: the same mesh and frames, or an error for both.
func FuzzGzip(f *testing.F) {
	tri := []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
	off := []byte("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
	glb := []byte("glTF\x02\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00JSON")
	gltf := []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA","byteLength":36}],` +
		`"bufferViews":[{"buffer":0,"byteLength":36}],"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}]}`)
	for _, seed := range []struct {
		mode byte
		data []byte
	}{
		{4, tri}, {5, off}, {6, glb}, {7, gltf},
		{0, gzipped(f, tri)}, {1, gzipped(f, off)}, {3, gzipped(f, gltf)},
		{0, gzipped(f, tri)[:20]},                               // truncated stream
		{0, append(gzipped(f, tri), gzipped(f, tri[8:])...)},    // two members
		{0, []byte("v 0 0 0\n")},                                // not gzip at all
		{2, append(gzipped(f, gltf)[:30], make([]byte, 40)...)}, // corrupt deflate data
	} {
		f.Add(seed.mode, seed.data)
	}
	f.Fuzz(func(t *testing.T, mode byte, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		dir := t.TempDir()
		ext := gzExts[mode&3]
		gz := filepath.Join(dir, "x"+ext+".gz")
		if mode&4 == 0 {
			if err := os.WriteFile(gz, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, _, err := readAny(gz); err != nil && !strings.Contains(err.Error(), gz) {
				t.Fatalf("error does not name %s: %v", gz, err)
			}
			return
		}
		plain := filepath.Join(dir, "y"+ext)
		if err := os.WriteFile(plain, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(gz, gzipped(t, data), 0o644); err != nil {
			t.Fatal(err)
		}
		m1, fr1, err1 := readAny(plain)
		m2, fr2, err2 := readAny(gz)
		if err2 != nil && !strings.Contains(err2.Error(), gz) {
			t.Fatalf("error does not name %s: %v", gz, err2)
		}
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("plain file: %v; compressed: %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		if !slices.Equal(m1.Verts, m2.Verts) || !slices.Equal(m1.Tris, m2.Tris) || !slices.Equal(fr1, fr2) {
			t.Fatal("the compressed file reads differently")
		}
	})
}
