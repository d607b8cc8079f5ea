package viewer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/collada"
	"github.com/meshrig/meshrig/format/gltf"
)

func TestSave(t *testing.T) {
	r, in := snake(t)
	dir := t.TempDir()
	input := filepath.Join(dir, "snake.glb")
	if err := os.WriteFile(input, []byte("the input"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, Options{Rig: r, Input: in, SaveDir: dir, Inputs: []string{input}})
	nj := r.Skeleton.Len()

	var got struct{ Path string }
	if err := json.Unmarshal(ts.ok("POST", "/api/save", `{"path":"out.glb"}`, 200), &got); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "out.glb"); got.Path != want {
		t.Errorf("saved to %s, want %s", got.Path, want)
	}
	sc, err := gltf.ReadScene(os.DirFS(dir), "out.glb", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Rig == nil || sc.Rig.Skeleton.Len() != nj || len(sc.Rig.Clips) != 1 {
		t.Fatalf("out.glb reads back as %+v", sc.Rig)
	}
	if b, _ := os.ReadFile(got.Path); string(b) != string(ts.glb()) {
		t.Error("the saved GLB differs from GET /api/rig.glb")
	}

	for _, version := range []string{"1.4.1", "1.5"} {
		ts.ok("POST", "/api/save", `{"path":"sub/../out.dae","collada":"`+version+`"}`, 200)
		sc, err := collada.ReadScene(os.DirFS(dir), "out.dae", format.SceneOptions{})
		if err != nil {
			t.Fatalf("Collada %s: %v", version, err)
		}
		if sc.Rig == nil || sc.Rig.Skeleton.Len() != nj {
			t.Fatalf("Collada %s reads back as %+v", version, sc.Rig)
		}
	}

	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ts.ok("POST", "/api/save", `{"path":"sub/deeper.glb"}`, 200)
	for _, c := range []struct{ body, says string }{
		{`{"path":"snake.glb"}`, "input"},
		{`{"path":"` + input + `"}`, "input"},
		{`{"path":"../out.glb"}`, "outside"},
		{`{"path":"` + filepath.Join(outside, "x.glb") + `"}`, "outside"},
		{`{"path":"link/x.glb"}`, "outside"},
		{`{"path":"none/x.glb"}`, "no such folder"},
		{`{"path":"out.obj"}`, ".glb, .gltf or .dae"},
		{`{"path":"out.glb.gz"}`, ".glb, .gltf or .dae"},
		{`{"path":"sub"}`, ".glb"},
		{`{"path":""}`, "path"},
		{`{}`, "path"},
		{`{"path":"out.dae","collada":"2.0"}`, "1.4.1 or 1.5"},
		{`{"path":"out.glb","collada":"1.5"}`, "applies to a .dae"},
		{`{"path":"out.glb","format":"glb"}`, "unknown field"},
		{`{"path":3}`, "malformed"},
		{`{"path":"out.glb"`, "malformed"},
		{``, "empty"},
	} {
		t.Run(c.body, func(t *testing.T) {
			wantError(t, ts.req("POST", "/api/save", c.body), 400, c.says)
		})
	}
	if b, _ := os.ReadFile(input); string(b) != "the input" {
		t.Error("the input was written over")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("a save landed outside the save folder: %v", entries)
	}
}
