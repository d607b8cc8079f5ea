package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderSaysWhatIsMissing: a frame or clip the file does not have is
// an error naming it, never a silent rest pose; an unrigged animation
// (morph targets) is drawn at the frame asked.
func TestRenderSaysWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	static := filepath.Join(dir, "static.glb")
	if _, err := run(t, "skeletonize", filepath.Join(gen(t, "snake"), "rest.obj"), "-o", static); err != nil {
		t.Fatal(err)
	}
	morph := filepath.Join("..", "..", "format", "gltf", "testdata", "morph.gltf")
	pic := filepath.Join(dir, "p.png")
	for _, c := range []struct {
		args []string
		want string // "" for success
	}{
		{[]string{"render", static, "-o", pic, "--frame", "5"}, "has no animation (a static rig)"},
		{[]string{"render", static, "-o", pic, "--clip", "walk"}, "has no animation"},
		{[]string{"render", static, "-o", pic}, ""},
		{[]string{"render", morph, "-o", pic, "--frame", "2"}, ""},
		{[]string{"render", morph, "-o", pic, "--frame", "99"}, "has frames 1 to"},
	} {
		os.Remove(pic)
		_, err := run(t, c.args...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.args[1:], err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: err = %v, want %q", c.args[1:], err, c.want)
		}
		if _, err := os.Stat(pic); (err == nil) != (c.want == "") {
			t.Errorf("%v: picture written: %v", c.args[1:], err == nil)
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 clips", 1: "1 clip", 2: "2 clips"} {
		if got := count(n, "clip"); got != want {
			t.Errorf("count(%d) = %q", n, got)
		}
	}
}
