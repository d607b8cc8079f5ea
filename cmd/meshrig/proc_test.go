//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run meshrig as a child process (startMain): the
// test binary runs main when MESHRIG_TEST_MAIN is set, so exit codes,
// signals and peak memory are those of the real command.
func TestMain(m *testing.M) {
	if os.Getenv("MESHRIG_TEST_MAIN") == "1" {
		os.Args = append([]string{"meshrig"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// proc is a finished child run of meshrig.
type proc struct {
	code           int
	killed         bool // by a signal, before meshrig could handle it
	stdout, stderr string
	peakMB         float64 // peak resident memory
}

// startMain starts meshrig with args in dir as a child process.
func startMain(t *testing.T, dir string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MESHRIG_TEST_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errb
}

// wait waits for a child at most limit (then kills it and fails: a hang
// is a bug, however slow the machine) and returns how it ended.
func wait(t *testing.T, cmd *exec.Cmd, out, errb *bytes.Buffer, limit time.Duration) proc {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("meshrig %v did not end within %v", cmd.Args[1:], limit)
	}
	p := proc{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		p.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			p.code, p.killed = 128+int(ws.Signal()), true // as a shell reports it
		}
	} else if err != nil {
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		p.peakMB = float64(ru.Maxrss) / 1024 // kilobytes on Linux
	}
	return p
}

// runMain runs meshrig with args in dir as a child process.
func runMain(t *testing.T, dir string, args ...string) proc {
	t.Helper()
	cmd, out, errb := startMain(t, dir, args...)
	return wait(t, cmd, out, errb, 5*time.Minute)
}
