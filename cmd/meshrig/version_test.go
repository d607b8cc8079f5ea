package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	out, err := run(t, "version")
	if err != nil || !strings.HasPrefix(out, "meshrig ") || !strings.Contains(out, runtime.Version()) {
		t.Fatalf("version = %q, %v", out, err)
	}
}

// TestVersionNamesRevision builds the command as `go install` would, from
// this checkout, and checks that `meshrig version` names its revision.
func TestVersionNamesRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git: cannot check the revision")
	}
	head, err := exec.Command(git, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout: ", err)
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	bin := filepath.Join(t.TempDir(), "meshrig")
	build := exec.Command(gotool, "build", "-buildvcs=true", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if rev := strings.TrimSpace(string(head))[:12]; !strings.Contains(string(out), "revision "+rev) {
		t.Errorf("version = %q, want revision %s", out, rev)
	}
}
