// Command testsum runs the project's tests and says what ran: `go test
// -json` with its arguments (./... when none), the usual one line per
// package, then a summary — packages, tests run, passed, skipped and
// failed — and every skipped test with the reason it gave, so "ok" is
// never read as "all of it ran". It exits non-zero when anything failed.
//
//	go run ./internal/testsum            # the README's test command
//	go run ./internal/testsum -run Robust ./cmd/meshrig
package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	args := append([]string{"test", "-json"}, os.Args[1:]...)
	if len(os.Args) == 1 {
		args = append(args, "./...")
	}
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	sum, readErr := Read(out, os.Stdout)
	waitErr := cmd.Wait()
	sum.Print(os.Stdout)
	switch {
	case readErr != nil:
		fmt.Fprintln(os.Stderr, "testsum: reading go test's output:", readErr)
		os.Exit(2)
	case sum.Bad():
		os.Exit(1)
	case waitErr != nil: // go test failed without saying so in its events
		fmt.Fprintln(os.Stderr, "testsum: go test:", waitErr)
		os.Exit(1)
	}
}
