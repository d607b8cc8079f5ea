package main

import (
	"strings"
	"testing"
)

// TestFramesFlag: --frames keeps a range of each clip's frames, and a bad
// range is refused as the flag is read, before any input is.
func TestFramesFlag(t *testing.T) {
	dir := gen(t, "snake") // 12 frames
	out, err := run(t, "info", dir, "--frames", "3:7")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "frames      5\n") {
		t.Errorf("info --frames 3:7 of 12 frames:\n%s", out)
	}
	out, err = run(t, "info", dir, "--frames", "10:")
	if err != nil || !strings.Contains(out, "frames      3\n") {
		t.Errorf("info --frames 10: of 12 frames: %v\n%s", err, out)
	}
	for arg, want := range map[string]string{
		"0:3":  "the first frame is 0: frames count from 1",
		"5:2":  "the last frame (2) comes before the first (5)",
		"x:3":  `the first frame "x" is not a whole number`,
		"12":   "want A:B",
		"1:-1": "the last frame is -1",
	} {
		_, err := run(t, "info", "missing-input", "--frames", arg)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--frames") {
			t.Errorf("--frames %s: %v, want it to say %q", arg, err, want)
		}
	}
	// A range past a clip's last frame names the clip and its length.
	if _, err := run(t, "info", dir, "--frames", "13:20"); err == nil || !strings.Contains(err.Error(), "12 frames") {
		t.Errorf("--frames 13:20 of 12 frames: %v", err)
	}
}
