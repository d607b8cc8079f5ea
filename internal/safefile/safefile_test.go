package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesOnlyOnSuccess(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error { io.WriteString(w, "partial"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("failed write changed the file to %q", b)
	}
	if err := Write(p, func(w io.Writer) error { _, e := io.WriteString(w, "new"); return e }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("file is %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
}

func TestWriteRefusesInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.obj")
	os.WriteFile(in, []byte("v 0 0 0"), 0o644)
	link := filepath.Join(dir, "link.obj")
	if err := os.Symlink(in, link); err != nil {
		t.Skip(err)
	}
	err := Write(link, func(w io.Writer) error { return nil }, in)
	if !errors.Is(err, ErrIsInput) {
		t.Fatalf("err = %v, want ErrIsInput", err)
	}
	if b, _ := os.ReadFile(in); string(b) != "v 0 0 0" {
		t.Fatal("input changed")
	}
}
