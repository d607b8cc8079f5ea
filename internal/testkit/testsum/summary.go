package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // of build-output and build-fail events
	Test       string
	Elapsed    float64
	Output     string
}

// Summary counts what a test run did.
type Summary struct {
	Packages, PackagesOK, PackagesFailed, NoTests int
	Run, Passed, Skipped, Failed                  int
	// Skips are the skipped tests with their reasons; FailedTests the
	// failed ones, "package Test" each; Failures what each failed test
	// or subtest said, repeated at the end of the summary because a CI
	// log is often read from its tail.
	Skips       []Skip
	FailedTests []string
	Failures    []Failure
}

// Failure is one failed test or subtest and the last lines it logged.
type Failure struct {
	Name  string // "package Test/sub"
	Lines []string
}

// failureLines bounds what the summary repeats of one failure.
const failureLines = 30

// Skip is one skipped test and why.
type Skip struct {
	Package, Test, Reason string
}

// Bad reports whether any package or test failed.
func (s *Summary) Bad() bool { return s.PackagesFailed > 0 || s.Failed > 0 }

// Read consumes go test's JSON events from r, writing to w the lines
// `go test` prints without -json (ok, FAIL, no test files, and the output
// of failing tests and packages), and returns the counts.
func Read(r io.Reader, w io.Writer) (*Summary, error) {
	s := &Summary{}
	output := map[[2]string][]string{} // (package, test) → its output lines
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: pass it on
			continue
		}
		key := [2]string{e.Package, e.Test}
		if e.ImportPath != "" {
			key = [2]string{"build " + e.ImportPath, ""}
		}
		switch e.Action {
		case "output", "build-output":
			output[key] = append(output[key], e.Output)
		case "run":
			if e.Test != "" && !strings.Contains(e.Test, "/") {
				s.Run++
			}
		case "pass", "skip", "fail":
			if e.Test != "" {
				s.testDone(e, output[key], w)
			} else if e.Package != "" {
				s.packageDone(e, output[key], w)
			}
			delete(output, key)
		case "build-fail": // the packages that needed it fail next
			fmt.Fprint(w, strings.Join(output[key], ""))
			delete(output, key)
		}
	}
	sort.Slice(s.Skips, func(i, j int) bool {
		a, b := s.Skips[i], s.Skips[j]
		return a.Package < b.Package || a.Package == b.Package && a.Test < b.Test
	})
	return s, sc.Err()
}

func (s *Summary) testDone(e event, out []string, w io.Writer) {
	if e.Action == "fail" {
		s.addFailure(short(e.Package)+" "+e.Test, out)
	}
	if strings.Contains(e.Test, "/") {
		if e.Action == "fail" {
			fmt.Fprint(w, strings.Join(out, ""))
		}
		return // subtests count with their parent
	}
	switch e.Action {
	case "pass":
		s.Passed++
	case "skip":
		s.Skipped++
		s.Skips = append(s.Skips, Skip{short(e.Package), e.Test, reason(out)})
	case "fail":
		s.Failed++
		s.FailedTests = append(s.FailedTests, short(e.Package)+" "+e.Test)
		fmt.Fprint(w, strings.Join(out, ""))
	}
}

// addFailure keeps what a failed test said, without go test's own
// framing lines; a parent whose subtests said it all adds nothing.
func (s *Summary) addFailure(name string, out []string) {
	var lines []string
	for _, l := range out {
		t := strings.TrimRight(l, "\n")
		if strings.TrimSpace(t) == "" || strings.HasPrefix(strings.TrimSpace(t), "=== ") || strings.HasPrefix(strings.TrimSpace(t), "--- FAIL") {
			continue
		}
		lines = append(lines, t)
	}
	if len(lines) == 0 {
		for _, f := range s.Failures {
			if strings.HasPrefix(f.Name, name+"/") {
				return
			}
		}
	}
	if len(lines) > failureLines {
		lines = append([]string{fmt.Sprintf("… %d lines before", len(lines)-failureLines)}, lines[len(lines)-failureLines:]...)
	}
	s.Failures = append(s.Failures, Failure{name, lines})
}

func (s *Summary) packageDone(e event, out []string, w io.Writer) {
	s.Packages++
	switch {
	case e.Action == "fail":
		s.PackagesFailed++
		fmt.Fprint(w, strings.Join(out, ""))
		if !hasLine(out, "FAIL\t"+e.Package) {
			fmt.Fprintf(w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
		}
	case e.Action == "skip" || hasLine(out, "[no test files]"):
		s.NoTests++
		fmt.Fprintf(w, "?   \t%s\t[no test files]\n", e.Package)
	default:
		s.PackagesOK++
		took := fmt.Sprintf("%.3fs", e.Elapsed)
		if hasLine(out, "(cached)") {
			took = "(cached)"
		}
		fmt.Fprintf(w, "ok  \t%s\t%s\n", e.Package, took)
	}
}

// reason is what a skipped test logged, without go test's own lines.
func reason(out []string) string {
	var parts []string
	for _, l := range out {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		// "file_test.go:12: message": keep the message.
		if i := strings.Index(t, ".go:"); i >= 0 {
			if j := strings.Index(t[i+4:], ": "); j >= 0 {
				t = t[i+4+j+2:]
			}
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}

func hasLine(out []string, s string) bool {
	for _, l := range out {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func short(pkg string) string {
	return strings.TrimPrefix(pkg, "github.com/meshrig/meshrig/")
}

// Print writes the summary.
func (s *Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "\n%d packages: %d ok, %d failed, %d without tests\n", s.Packages, s.PackagesOK, s.PackagesFailed, s.NoTests)
	fmt.Fprintf(w, "%d tests run: %d passed, %d skipped, %d failed\n", s.Run, s.Passed, s.Skipped, s.Failed)
	if len(s.Skips) > 0 {
		fmt.Fprintf(w, "skipped, and why:\n")
		for _, k := range s.Skips {
			fmt.Fprintf(w, "  %s %s: %s\n", k.Package, k.Test, k.Reason)
		}
	}
	if len(s.Failures) > 0 {
		fmt.Fprintf(w, "what failed, and what it said:\n")
		for _, f := range s.Failures {
			fmt.Fprintf(w, "  %s\n", f.Name)
			for _, l := range f.Lines {
				fmt.Fprintf(w, "    %s\n", strings.TrimSpace(l))
			}
		}
	}
	for _, f := range s.FailedTests {
		fmt.Fprintf(w, "FAILED %s\n", f)
	}
}
