package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseManifest(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "lib.jsonl")
	text := `# a comment, then a blank line

{"id":"horse","input":"horse-gallop","bones":20,"skeleton":"none","fps":24,"frames":"1:10"}
{"id":"hero","input":["walk","/abs/run","clips/*.obj"],"output":"chars/hero.dae","rest":"rest.obj","method":"face-clustering"}
{"id":"cow.v2","input":"cow","rest":"frame:3","memory_mb":512}
`
	items, err := ParseManifest(strings.NewReader(text), name)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 {
		t.Fatalf("%d items, want 3", len(items))
	}
	h := items[0]
	if h.Line != 3 || h.Inputs[0] != filepath.Join(dir, "horse-gallop") || h.Output != "horse.glb" ||
		h.Rig.Method != "ledeng" || h.Rig.Bones != 20 || h.Rig.Skeleton != "none" || h.Rig.FPS != 24 || h.Rig.Frames != "1:10" {
		t.Errorf("horse = %+v", h)
	}
	hero := items[1]
	want := []string{filepath.Join(dir, "walk"), "/abs/run", filepath.Join(dir, "clips/*.obj")}
	if strings.Join(hero.Inputs, "|") != strings.Join(want, "|") || hero.Output != "chars/hero.dae" ||
		hero.Rig.Rest != filepath.Join(dir, "rest.obj") || hero.Rig.Method != "face-clustering" {
		t.Errorf("hero = %+v", hero)
	}
	if c := items[2]; c.Rig.Rest != "frame:3" || c.MemoryMB != 512 {
		t.Errorf("cow = %+v", c)
	}
}

// TestManifestErrors: each bad line is refused with its line number and
// what is wrong, before any work.
func TestManifestErrors(t *testing.T) {
	good := `{"id":"a","input":"a"}`
	cases := []struct{ line, want string }{
		{`{"id":"b","input":"b","bone":3}`, `:2: unknown key "bone"`},
		{`{"id":"b","input":"b","bones":"many"}`, `:2: key "bones": want int, not a JSON string`},
		{`{"id":"b","input":"b","bones":-1}`, `:2: "bones" -1`},
		{`{"id":"b","input":"b","bones":5000}`, `:2: "bones" 5000`},
		{`{"id":"b","input":"b","method":"magic"}`, `:2: "method": unknown method "magic"`},
		{`{"id":"b","input":"b","method":"spectral","skeleton":"none"}`, `:2: "skeleton": "none": method spectral`},
		{`{"id":"b","input":"b","skeleton":"bush"}`, `:2: "skeleton" "bush"`},
		{`{"id":"b","input":"b","frames":"9:2"}`, `:2: "frames"`},
		{`{"id":"b","input":"b","fps":-3}`, `:2: "fps" -3`},
		{`{"id":"b","input":"b","rest":"frame:0"}`, `:2: "rest" "frame:0"`},
		{`{"id":"b","input":"b","iterations":2000}`, `:2: "iterations" 2000`},
		{`{"id":"b","input":"b","max_influences":5}`, `:2: "max_influences" 5`},
		{`{"id":"b","input":"b","search":"fast"}`, `:2: "search" "fast"`},
		{`{"id":"b","input":"b","stretch":"yes"}`, `:2: key "stretch"`},
		{`{"id":"b","input":"b","fast":true,"search":"full"}`, `:2: "fast" is "search": "coarse": not with "search": "full"`},
		{`{"id":"b","input":"b","output":"b.txt"}`, `:2: "output"`},
		{`{"id":"b","input":"b","output":"../b.glb"}`, `:2: "output" "../b.glb" leaves the output folder`},
		{`{"id":"b","input":"b","output":"/tmp/b.glb"}`, `:2: "output" "/tmp/b.glb": give a path inside`},
		{`{"id":"b","input":"b","output":"reports/b.glb"}`, `:2: "output" "reports/b.glb": reports/ holds the reports`},
		{`{"id":"b"}`, `:2: missing "input"`},
		{`{"id":"b","input":[]}`, `:2: "input" is an empty list`},
		{`{"id":"b","input":3}`, `:2: "input": want a string or a list of strings`},
		{`{"input":"b"}`, `:2: missing "id"`},
		{`{"id":"../b","input":"b"}`, `:2: "id" "../b"`},
		{`{"id":"a","input":"b"}`, `:2: id "a" is already line 1's`},
		{`{"id":"b","input":"b","output":"A.GLB"}`, `:2: output "A.GLB" is already line 1's`},
		{`{"id":"b","input":"b"} {}`, `:2: more than one JSON value`},
		{`["b"]`, `:2: want a JSON object, not a JSON array`},
		{`{"id":"b",`, `:2: not a JSON object`},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			_, err := ParseManifest(strings.NewReader(good+"\n"+c.line+"\n"), "m.jsonl")
			if err == nil || !strings.Contains(err.Error(), "m.jsonl"+c.want) && !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one holding %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "m.jsonl:2: ") {
				t.Errorf("error %q does not start with the file and line", err)
			}
		})
	}
	if _, err := ParseManifest(strings.NewReader("# nothing\n"), "m.jsonl"); err == nil || !strings.Contains(err.Error(), "no items") {
		t.Errorf("empty manifest: %v", err)
	}
}

func TestReadManifestFolder(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"wolf", "cat", ".hidden"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	items, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].ID != "cat" || items[1].ID != "wolf" || items[1].Inputs[0] != filepath.Join(dir, "wolf") || items[1].Output != "wolf.glb" {
		t.Errorf("items = %+v", items)
	}
	os.Mkdir(filepath.Join(dir, "bad name"), 0o755)
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), "bad name") {
		t.Errorf("a folder that is no id: %v", err)
	}
}
