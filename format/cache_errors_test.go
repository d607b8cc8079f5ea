package format_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/mdd"
	"github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// TestCacheErrorsNameFile: a truncated point cache loaded beside its
// rest mesh fails with an error that names the cache, the byte and the
// sample, with no empty field (it read "sample 6 of 2711468: : at byte
// 3992").
func TestCacheErrorsNameFile(t *testing.T) {
	dir := t.TempDir()
	rest, err := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, [][]int{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := obj.Write(&b, rest); err != nil {
		t.Fatal(err)
	}
	restPath := filepath.Join(dir, "rest.obj")
	if err := os.WriteFile(restPath, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	frames := [][]linalg.Vec3{rest.Verts, rest.Verts, rest.Verts}
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
		cut   int // bytes kept
		want  string
	}{
		// 32-byte header, 36-byte samples: the third is cut short.
		{"cache.pc2", func(b *bytes.Buffer) error { return pc2.Write(b, frames) }, 32 + 2*36 + 20, "at byte 104: sample 3 of 3: truncated file"},
		// 8-byte header, three 4-byte times, 36-byte frames.
		{"cache.mdd", func(b *bytes.Buffer) error { return mdd.Write(b, frames, 30) }, 20 + 36 + 1, "at byte 56: frame 2 of 3: truncated file"},
		{"times.mdd", func(b *bytes.Buffer) error { return mdd.Write(b, frames, 30) }, 14, "at byte 12: time of frame 2 of 3: truncated file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.write(&b); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, b.Bytes()[:c.cut], 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(path)
			_, err := format.Load([]string{path, restPath}, format.LoadOptions{})
			if want := path + ": " + c.want; err == nil || err.Error() != want {
				t.Fatalf("error %v, want %s", err, want)
			}
			if !errors.Is(err, format.ErrTruncated) {
				t.Errorf("%v does not wrap ErrTruncated", err)
			}
		})
	}
}

// TestParseErrorText: a ParseError without a file name has no empty
// field, and WithFile names the file of one wrapped in a message built
// before it had a name.
func TestParseErrorText(t *testing.T) {
	cause := errors.New("bad")
	for _, c := range []struct {
		err  *format.ParseError
		want string
	}{
		{&format.ParseError{Offset: 12, Err: cause}, "at byte 12: bad"},
		{&format.ParseError{Line: 3, Offset: -1, Err: cause}, "line 3: bad"},
		{&format.ParseError{Line: 3, Col: 7, Offset: -1, Err: cause}, "line 3, column 7: bad"},
		{&format.ParseError{Offset: -1, Err: cause}, "bad"},
		{&format.ParseError{File: "a.pc2", Offset: 12, Err: cause}, "a.pc2: at byte 12: bad"},
		{&format.ParseError{File: "a.obj", Line: 3, Col: 7, Offset: -1, Err: cause}, "a.obj:3:7: bad"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
	wrapped := fmt.Errorf("sample 2 of 9: %w", &format.ParseError{Offset: 68, Err: format.ErrTruncated})
	err := format.WithFile(wrapped, "a.pc2")
	if want := "a.pc2: sample 2 of 9: at byte 68: truncated file"; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
	var pe *format.ParseError
	if !errors.As(err, &pe) || pe.File != "a.pc2" {
		t.Errorf("the ParseError in %v has no file name", err)
	}
	bare := &format.ParseError{Offset: 68, Err: format.ErrTruncated}
	if err := format.WithFile(bare, "a.pc2"); err != error(bare) || !strings.HasPrefix(err.Error(), "a.pc2: at byte 68") {
		t.Errorf("WithFile on a bare ParseError: %v", err)
	}
}
