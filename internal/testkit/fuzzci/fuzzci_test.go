package fuzzci

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestTargets: the discovery finds fuzz targets by their declaration only,
// in test files only, and skips testdata.
func TestTargets(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                     "module example.com/m\n",
		"a/a_test.go":                "package a\n\nfunc FuzzRead(f *testing.F) {}\nfunc FuzzWrite( f *testing.F ) {}\nfunc TestX(t *testing.T) {}\n// func FuzzComment(f *testing.F)\nfunc FuzzT(t *testing.T) {}\n",
		"a/b/b_test.go":              "package b\n\nfunc FuzzB(f *testing.F) {\n}\n",
		"a/a.go":                     "package a\n\nfunc FuzzNotATest(f *testing.F) {}\n",
		"a/testdata/x_test.go":       "package x\n\nfunc FuzzData(f *testing.F) {}\n",
		".ci/node_modules/x_test.go": "package x\n\nfunc FuzzHidden(f *testing.F) {}\n",
	}
	for name, src := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Targets(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Target{{"a", "FuzzRead"}, {"a", "FuzzWrite"}, {"a/b", "FuzzB"}}
	if len(got) != len(want) {
		t.Fatalf("targets %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("targets %v, want %v", got, want)
		}
	}
	sub, err := ModuleRoot(filepath.Join(root, "a", "b"))
	if err != nil || sub != root {
		t.Errorf("ModuleRoot = %q, %v; want %q", sub, err, root)
	}
}

// TestModuleTargets: this module's readers are all found (a fuzz target
// per parser is a project rule).
func TestModuleTargets(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	targets, err := Targets(root)
	if err != nil {
		t.Fatal(err)
	}
	have := map[Target]bool{}
	for _, tg := range targets {
		have[tg] = true
	}
	for _, tg := range []Target{{"format/gltf", "FuzzReadScene"}, {"format/obj", "FuzzRead"}, {"format/off", "FuzzRead"},
		{"format/pc2", "FuzzRead"}, {"format/mdd", "FuzzRead"}, {"format/libigl", "FuzzReadTGF"}} {
		if !have[tg] {
			t.Errorf("%s.%s not found among %v", tg.Dir, tg.Name, targets)
		}
	}
}

// fuzzTime is how long CI fuzzes each target: a duration or a count of
// executions ("500x"), as go test -fuzztime takes it.
var fuzzTime = regexp.MustCompile(`^([0-9]+x|[0-9.]+(ns|us|µs|ms|s|m|h))$`)

// TestFuzz fuzzes every target for $MESHRIG_FUZZTIME, one after another
// (each uses every core).
func TestFuzz(t *testing.T) {
	ft := os.Getenv("MESHRIG_FUZZTIME")
	if ft == "" {
		t.Skip("MESHRIG_FUZZTIME not set: set it (10s, 1m, 500x) to fuzz every target that long")
	}
	if testing.Short() {
		t.Skip("fuzzing skipped under -short")
	}
	if !fuzzTime.MatchString(ft) {
		t.Fatalf("MESHRIG_FUZZTIME=%q: want a duration (10s, 1m) or a count of executions (500x)", ft)
	}
	goTool, err := exec.LookPath(filepath.Join(runtime.GOROOT(), "bin", "go"))
	if err != nil {
		goTool, err = exec.LookPath("go")
	}
	shareddata.RequireTool(t, err == nil, "the go command")
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	targets, err := Targets(root)
	if err != nil {
		t.Fatal(err)
	}
	per, _ := time.ParseDuration(ft) // 0 for a count
	for k, tg := range targets {
		// Leave the test's own deadline a margin, and say so, rather than
		// be killed in the middle of a target.
		if dl, ok := t.Deadline(); ok && time.Until(dl) < per+time.Minute {
			t.Fatalf("%d of %d targets not fuzzed: the test's -timeout ends in %v; lower MESHRIG_FUZZTIME or raise -timeout",
				len(targets)-k, len(targets), time.Until(dl).Round(time.Second))
		}
		t.Run(strings.ReplaceAll(tg.Dir, "/", "_")+"."+tg.Name, func(t *testing.T) {
			var out []byte
			var err error
			for try := 0; try < 2; try++ {
				start := time.Now()
				cmd := exec.Command(goTool, "test", "-run", "^$", "-fuzz", "^"+tg.Name+"$", "-fuzztime", ft, "./"+tg.Dir)
				cmd.Dir = root
				out, err = cmd.CombinedOutput()
				t.Logf("%s.%s: %s; %v in all", tg.Dir, tg.Name, rate(out), time.Since(start).Round(time.Second))
				if err == nil || !deadlineRace(out) {
					break
				}
				t.Logf("%s.%s: 'context deadline exceeded' as -fuzztime ran out, no failing input: Go's fuzzing coordinator (go.dev/issue/75804, fixed in Go 1.27), not the target; run %d of 2", tg.Dir, tg.Name, try+1)
			}
			if err == nil {
				return
			}
			if deadlineRace(out) {
				return // twice the coordinator's race, never an input: nothing found
			}
			msg := string(out)
			if m := failingInput.FindSubmatch(out); m != nil {
				if data, rerr := os.ReadFile(filepath.Join(root, tg.Dir, string(m[1]))); rerr == nil {
					msg += "\nthe input, now in " + tg.Dir + "/" + string(m[1]) + ":\n" + string(data)
				}
			}
			t.Errorf("go test -fuzz %s ./%s: %v\n%s", tg.Name, tg.Dir, err, msg)
		})
	}
}

var (
	progress     = regexp.MustCompile(`elapsed: ([0-9]+)s, execs: ([0-9]+) `)
	failingInput = regexp.MustCompile(`Failing input written to (testdata/fuzz/\S+)`)
)

// deadlineRace reports whether go test -fuzz failed only by the race in
// Go's fuzzing coordinator at the end of a -fuzztime duration
// (go.dev/issue/75804): "context deadline exceeded" and no failing input
// written. A real failure writes its input, and is never taken for it.
func deadlineRace(out []byte) bool {
	return bytes.Contains(out, []byte("context deadline exceeded")) && !failingInput.Match(out) && !bytes.Contains(out, []byte("panic:"))
}

// rate reads the last progress line of go test -fuzz: executions over
// the time fuzzed.
func rate(out []byte) string {
	all := progress.FindAllSubmatch(out, -1)
	if len(all) == 0 {
		return "no executions reported"
	}
	last := all[len(all)-1]
	secs, _ := strconv.Atoi(string(last[1]))
	execs, _ := strconv.Atoi(string(last[2]))
	return fmt.Sprintf("%d executions in %ds (%d/s)", execs, secs, execs/max(secs, 1))
}

// TestDeadlineRace: the coordinator's end-of-fuzztime race (CI printed
// exactly this for FuzzDecodeASCII) is told apart from a failure that
// wrote its input, or that panicked.
func TestDeadlineRace(t *testing.T) {
	race := "fuzz: elapsed: 10s, execs: 197259 (21867/sec), new interesting: 2 (total: 292)\n--- FAIL: FuzzDecodeASCII (10.11s)\n    context deadline exceeded\nFAIL\nexit status 1\n"
	found := "--- FAIL: FuzzOpen (0.55s)\n    fuzz_test.go:43: error without an offset\n    Failing input written to testdata/fuzz/FuzzOpen/82630de05c4c4515\ncontext deadline exceeded\n"
	crash := "panic: runtime error: index out of range\ncontext deadline exceeded\n"
	plain := "--- FAIL: FuzzRead (0.10s)\n    read_test.go:9: bad\n"
	for _, tc := range []struct {
		out  string
		want bool
	}{{race, true}, {found, false}, {crash, false}, {plain, false}} {
		if got := deadlineRace([]byte(tc.out)); got != tc.want {
			t.Errorf("deadlineRace(%q) = %v, want %v", tc.out, got, tc.want)
		}
	}
}
