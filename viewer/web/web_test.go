package web

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestBundleUpToDate rebuilds the bundle from src/ with the pinned esbuild
// and fails if it differs from the committed dist/app.js: the page served
// is the page in the sources.
func TestBundleUpToDate(t *testing.T) {
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join("node_modules", "esbuild", "package.json"))
	_, threeErr := os.Stat(filepath.Join("node_modules", "three", "package.json"))
	shareddata.RequireTool(t, nodeErr == nil && modErr == nil && threeErr == nil,
		"node with viewer/web's npm packages (npm ci --prefix viewer/web)")
	out := filepath.Join(t.TempDir(), "app.js")
	cmd := exec.Command("node", "build.mjs", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node build.mjs: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("dist", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("dist/app.js (%d bytes) differs from a fresh build of src/ (%d bytes): run go generate ./viewer/web and commit dist/app.js", len(want), len(got))
	}
}

// TestFS checks the served names: the page, its script and styles, and
// nothing else (no sources, no package files).
func TestFS(t *testing.T) {
	for name, must := range map[string]string{
		"index.html": `src="/app.js"`,
		"app.js":     "GLTFLoader",
		"app.css":    "#view",
	} {
		b, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(string(b), must) {
			t.Errorf("%s lacks %q", name, must)
		}
	}
	if b, _ := fs.ReadFile(FS, "index.html"); !strings.Contains(string(b), `href="/app.css"`) {
		t.Error("index.html does not load /app.css")
	}
	for _, name := range []string{"dist/app.js", "src/main.js", "package.json", "web.go", ".", "../web.go", ""} {
		if _, err := FS.Open(name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q) = %v, want not exist", name, err)
		}
	}
	info, err := fs.Stat(FS, "app.js")
	if err != nil || info.Name() != "app.js" || info.Size() < 100_000 {
		t.Errorf("Stat(app.js) = %v, %v: want the bundle", info, err)
	}
}
