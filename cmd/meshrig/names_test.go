package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneNamePerThing: a method is reported by the name --method takes
// (older names still accepted), and `formats` lists every extension a
// command reads, --truth's skeletons included.
func TestOneNamePerThing(t *testing.T) {
	seq := gen(t, "snake")
	for given, want := range map[string]string{"ledeng": "ledeng", "le-deng-2014": "ledeng", "face-clustering": "face-clustering", "schaefer": "face-clustering"} {
		rep := filepath.Join(t.TempDir(), "r.json")
		text, err := run(t, "rig", seq, "-o", filepath.Join(t.TempDir(), "r.glb"), "--method", given, "--iterations", "2", "--report", rep)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "method        "+want+"\n") {
			t.Errorf("--method %s reported as:\n%s", given, text)
		}
		var r struct{ Method string }
		b, _ := os.ReadFile(rep)
		if json.Unmarshal(b, &r); r.Method != want {
			t.Errorf("--method %s: report says %q", given, r.Method)
		}
	}
	text, err := run(t, "formats")
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".obj", ".off", ".glb", ".gltf", ".dae", ".pc2", ".mdd", ".tgf", ".dmat"} {
		if !strings.Contains(text, ext) {
			t.Errorf("formats omits %s:\n%s", ext, text)
		}
	}
}
