package gltf

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
)

// TestFilesListed: Scene.Files names the file and every buffer it read,
// so a command can refuse to overwrite any of them.
func TestFilesListed(t *testing.T) {
	external, b := twoTriangles(t, "data.bin")
	embedded, _ := twoTriangles(t, "")
	fsys := fstest.MapFS{"m/a.gltf": {Data: external}, "m/data.bin": {Data: b.data}, "e.gltf": {Data: embedded}, "x.glb": {Data: toGLB(t, embedded)}}
	for name, want := range map[string][]string{
		"m/a.gltf": {"m/a.gltf", "m/data.bin"},
		"e.gltf":   {"e.gltf"},
		"x.glb":    {"x.glb"},
	} {
		sc, err := ReadScene(fsys, name, format.SceneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sc.Files, want) {
			t.Errorf("%s: Files %q, want %q", name, sc.Files, want)
		}
	}
}

// TestSideFilesRegular: a buffer that is a named pipe or a folder is
// refused without opening it (any fs.FS that can stat), and so is one
// larger than meshrig reads, before it is read.
func TestSideFilesRegular(t *testing.T) {
	doc, b := twoTriangles(t, "data.bin")
	for _, tc := range []struct {
		bin  *fstest.MapFile
		want string
	}{
		{&fstest.MapFile{Mode: fs.ModeNamedPipe}, "data.bin: not a regular file (a named pipe)"},
		{&fstest.MapFile{Mode: fs.ModeDir}, "data.bin: not a regular file (a folder)"},
		{&fstest.MapFile{Mode: fs.ModeDevice | fs.ModeCharDevice}, "data.bin: not a regular file (a device)"},
	} {
		fsys := &statLog{MapFS: fstest.MapFS{"a.gltf": {Data: doc}, "data.bin": tc.bin}}
		_, err := ReadScene(fsys, "a.gltf", format.SceneOptions{})
		if !errors.Is(err, format.ErrNotRegular) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
		if !slices.Equal(fsys.names, []string{"a.gltf"}) {
			t.Errorf("opened %q, want only a.gltf", fsys.names)
		}
	}
	_, err := ReadScene(huge{fstest.MapFS{"a.gltf": {Data: doc}, "data.bin": {Data: b.data}}, "data.bin"}, "a.gltf", format.SceneOptions{})
	if err == nil || !strings.Contains(err.Error(), "data.bin: 2147483648 bytes") {
		t.Errorf("a 2 GiB buffer: %v", err)
	}
	// The glTF file itself too.
	_, err = ReadScene(fstest.MapFS{"a.gltf": {Data: doc, Mode: fs.ModeNamedPipe}}, "a.gltf", format.SceneOptions{})
	if !errors.Is(err, format.ErrNotRegular) {
		t.Errorf("a pipe as the glTF file: %v", err)
	}
}

// statLog records the names opened in a MapFS, which can stat without
// opening.
type statLog struct {
	fstest.MapFS
	names []string
}

func (o *statLog) Open(name string) (fs.File, error) {
	o.names = append(o.names, name)
	return o.MapFS.Open(name)
}

// huge reports one file as 2 GiB.
type huge struct {
	fstest.MapFS
	name string
}

func (h huge) Stat(name string) (fs.FileInfo, error) {
	st, err := h.MapFS.Stat(name)
	if err == nil && name == h.name {
		return bigInfo{st}, nil
	}
	return st, err
}

type bigInfo struct{ fs.FileInfo }

func (bigInfo) Size() int64 { return 2 << 30 }
