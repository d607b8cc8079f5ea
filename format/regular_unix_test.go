//go:build unix

package format_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/meshrig/meshrig/format"
)

// noHang runs f and fails the test, instead of hanging it, when f does not
// return: opening a named pipe for reading waits for a writer forever.
func noHang(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("still waiting on the named pipe after 20 s")
		return nil
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
}

// TestNamedPipesRefused: a named pipe given as a mesh, found in a folder
// of frames, named as a glTF buffer or given as the glTF file is refused
// at once, naming it.
func TestNamedPipesRefused(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "x.obj")
	mkfifo(t, pipe)
	for name, f := range map[string]func() error{
		"Open":     func() error { rc, err := format.Open(pipe); closeIf(rc); return err },
		"ReadMesh": func() error { _, err := format.ReadMesh(pipe); return err },
		"Load":     func() error { _, err := format.Load([]string{pipe}, format.LoadOptions{}); return err },
		"folder":   func() error { _, err := format.Load([]string{dir}, format.LoadOptions{}); return err },
	} {
		err := noHang(t, f)
		if !errors.Is(err, format.ErrNotRegular) || !strings.Contains(err.Error(), "x.obj: not a regular file (a named pipe)") {
			t.Errorf("%s: err = %v, want x.obj: not a regular file (a named pipe)", name, err)
		}
	}

	// A glTF whose buffer is a pipe, and a pipe named as a glTF.
	gltf, bin := sceneWithBuffer(t)
	os.Remove(bin)
	mkfifo(t, bin)
	err := noHang(t, func() error { _, err := format.ReadScene(gltf, format.SceneOptions{}); return err })
	if !errors.Is(err, format.ErrNotRegular) || !strings.Contains(err.Error(), "external.bin: not a regular file (a named pipe)") {
		t.Errorf("buffer: err = %v, want external.bin: not a regular file (a named pipe)", err)
	}
	scene := filepath.Join(dir, "y.gltf")
	mkfifo(t, scene)
	err = noHang(t, func() error { _, err := format.Load([]string{scene}, format.LoadOptions{}); return err })
	if !errors.Is(err, format.ErrNotRegular) || !strings.Contains(err.Error(), "y.gltf: not a regular file (a named pipe)") {
		t.Errorf("scene: err = %v, want y.gltf: not a regular file (a named pipe)", err)
	}
	// A folder named as a mesh is not a regular file either.
	folder := filepath.Join(dir, "z.obj")
	os.Mkdir(folder, 0o755)
	if _, err := format.ReadMesh(folder); !errors.Is(err, format.ErrNotRegular) {
		t.Errorf("folder: err = %v, want ErrNotRegular", err)
	}
}

func closeIf(c interface{ Close() error }) {
	if c != nil {
		c.Close()
	}
}
