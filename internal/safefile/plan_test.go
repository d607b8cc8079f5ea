package safefile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func put(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPlanOutputChecks(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.obj")
	put(t, in, "v 0 0 0")
	link := filepath.Join(dir, "link.obj")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	cases := []struct {
		name    string
		outputs []string
		want    string
	}{
		{"folder", []string{sub}, "is a folder"},
		{"missing folder", []string{filepath.Join(dir, "nope", "x.glb")}, "does not exist"},
		{"file as folder", []string{filepath.Join(in, "x.glb")}, "not a folder"},
		{"input", []string{in}, ErrIsInput.Error()},
		{"link to input", []string{link}, ErrIsInput.Error()},
		{"same twice", []string{filepath.Join(dir, "a.glb"), filepath.Join(sub, "..", "a.glb")}, ErrSameOutput.Error()},
		{"empty", []string{""}, "needs a file name"},
	}
	if runtime.GOOS == "linux" {
		// Root may write any folder; /proc takes no new file from anyone.
		cases = append(cases, struct {
			name    string
			outputs []string
			want    string
		}{"read-only folder", []string{"/proc/x.glb"}, "cannot write in folder /proc"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p Plan
			p.Read(in)
			var err error
			for _, o := range c.outputs {
				if err = p.Output("-o", o); err != nil {
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one saying %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "-o ") {
				t.Errorf("error does not name the flag: %v", err)
			}
		})
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("checks left files behind: %v", ents)
	}
}

func TestPlanCheckSeesLateInputs(t *testing.T) {
	dir := t.TempDir()
	frame := filepath.Join(dir, "frame-0001.obj")
	put(t, frame, "v 0 0 0")
	var p Plan
	if err := p.Output("--report", frame); err != nil {
		t.Fatal(err) // the folder's files are not known yet
	}
	p.Read(frame) // ...now they are
	if err := p.Check(); !errors.Is(err, ErrIsInput) {
		t.Fatalf("Check = %v, want ErrIsInput", err)
	}
}

func TestPlanCommitsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.glb"), filepath.Join(dir, "b.json")
	put(t, a, "old a")
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}

	// A failing second output leaves the first as it was.
	var p Plan
	if err := p.Output("-o", a); err != nil {
		t.Fatal(err)
	}
	if err := p.Output("--report", b); err != nil {
		t.Fatal(err)
	}
	if err := p.Stage(a, text("new a")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := p.Stage(b, func(w io.Writer) error { return boom })
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), b+": ") {
		t.Fatalf("Stage = %v, want boom named after %s", err, b)
	}
	p.Abort()
	assertFiles(t, dir, map[string]string{"a.glb": "old a"})

	// An interrupted plan renames nothing.
	p = Plan{}
	p.Output("-o", a)
	p.Output("--report", b)
	p.Stage(a, text("new a"))
	p.Stage(b, text("b"))
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("interrupted")
	cancel(stop)
	if err := p.Commit(ctx); !errors.Is(err, stop) {
		t.Fatalf("Commit = %v, want the context's cause", err)
	}
	assertFiles(t, dir, map[string]string{"a.glb": "old a"})

	// A live one renames both.
	p = Plan{}
	p.Output("-o", a)
	p.Output("--report", b)
	p.Stage(a, text("new a"))
	p.Stage(b, text("b"))
	if err := p.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.Abort() // after a commit: nothing to remove
	assertFiles(t, dir, map[string]string{"a.glb": "new a", "b.json": "b"})
}

func TestStageErrorNamesOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.glb")
	err := Write(out, func(w io.Writer) error {
		f := w.(*os.File)
		f.Close() // the next write fails with an error naming the file
		_, err := f.Write([]byte("x"))
		return err
	})
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), out) {
		t.Fatalf("err = %v, want one naming %s and no temporary file", err, out)
	}
	assertFiles(t, dir, map[string]string{})
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.glb")
	var p Plan
	p.Output("-o", out)
	p.Stage(out, func(w io.Writer) error { return nil })
	RemoveTemps()
	assertFiles(t, dir, map[string]string{})
}

// assertFiles checks that dir holds exactly the files want, with their
// contents: no temporary file is left.
func assertFiles(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(want) {
		t.Errorf("folder holds %v, want %v", ents, want)
	}
	for name, text := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != text {
			t.Errorf("%s = %q, %v; want %q", name, b, err, text)
		}
	}
}
