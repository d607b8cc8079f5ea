package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveStale: a temporary file left by a killed Stage is removed,
// the destination and other files beside it are not.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "a[1].glb")
	put(t, out, "old")
	put(t, filepath.Join(dir, ".b.glb.123.tmp"), "other output's")
	// A Stage that fails half-way removes its file; one killed does not:
	// leave one as a kill would.
	tmp, err := stage(out, func(w io.Writer) error { _, err := w.Write([]byte("half")); return err })
	if err != nil {
		t.Fatal(err)
	}
	forget(tmp)
	if _, err := stage(out, func(w io.Writer) error { return errors.New("fails") }); err == nil {
		t.Fatal("stage: want the fill's error")
	}
	n, err := RemoveStale(out)
	if err != nil || n != 1 {
		t.Fatalf("RemoveStale = %d, %v; want 1, nil", n, err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("%s still there", tmp)
	}
	for _, keep := range []string{out, filepath.Join(dir, ".b.glb.123.tmp")} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s removed: %v", keep, err)
		}
	}
}
