//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// countdown is a context that is cancelled, as Ctrl-C would, at its
// n-th Err check: run a command under it for every n and it is
// interrupted at each place it looks, the last ones included.
type countdown struct {
	context.Context
	cancel context.CancelCauseFunc
	left   atomic.Int64
	seen   atomic.Int64
}

func newCountdown(n int64) *countdown {
	ctx, cancel := context.WithCancelCause(context.Background())
	c := &countdown{Context: ctx, cancel: cancel}
	c.left.Store(n)
	return c
}

func (c *countdown) Err() error {
	c.seen.Add(1)
	if c.left.Add(-1) < 0 {
		c.cancel(errInterrupted)
	}
	return c.Context.Err()
}

// runCtx runs meshrig in-process under ctx.
func runCtx(ctx context.Context, args ...string) error {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append(args, "--quiet"))
	return root.ExecuteContext(ctx)
}

// TestInterruptAnywhere interrupts each writing command at every check
// of its context, from the first to the commit: each run must say it was
// interrupted and leave no output.
func TestInterruptAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs each command dozens of times")
	}
	seqDir := gen(t, "snake")
	rigFile := filepath.Join(t.TempDir(), "rig.glb")
	if _, err := run(t, "rig", seqDir, "-o", rigFile, "--iterations", "2"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args func(out string) []string
	}{
		{"rig", func(out string) []string {
			return []string{"rig", seqDir, "-o", filepath.Join(out, "a.glb"), "--report", filepath.Join(out, "a.json"), "--iterations", "2"}
		}},
		{"rig face-clustering", func(out string) []string {
			return []string{"rig", seqDir, "--method", "face-clustering", "-o", filepath.Join(out, "a.dae")}
		}},
		{"skeletonize", func(out string) []string {
			return []string{"skeletonize", filepath.Join(seqDir, "rest.obj"), "-o", filepath.Join(out, "a.glb"), "--report", filepath.Join(out, "a.json")}
		}},
		{"eval", func(out string) []string {
			return []string{"eval", rigFile, seqDir, "--report", filepath.Join(out, "a.json")}
		}},
		{"render", func(out string) []string { return []string{"render", rigFile, "-o", filepath.Join(out, "a.png")} }},
		{"gen", func(out string) []string {
			return []string{"gen", "biped", "-o", out, "--frames", "3", "--vertices", "500"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// How many checks does a whole run make?
			full := newCountdown(1 << 40)
			if err := runCtx(full, c.args(t.TempDir())...); err != nil {
				t.Fatal(err)
			}
			n := full.seen.Load()
			if n == 0 {
				t.Fatal("the command never checks for an interrupt")
			}
			// Every check near the start and the end, and a spread between.
			var at []int64
			for k := int64(0); k < n; k = k*3/2 + 1 {
				at = append(at, k)
			}
			for k := max(0, n-4); k < n; k++ {
				at = append(at, k)
			}
			for _, k := range at {
				out := t.TempDir()
				err := runCtx(newCountdown(k), c.args(out)...)
				if !interrupted(err) {
					t.Fatalf("interrupted at check %d of %d: err = %v, want an interrupt", k+1, n, err)
				}
				if ents, _ := os.ReadDir(out); len(ents) > 0 {
					t.Fatalf("interrupted at check %d of %d: left %v", k+1, n, ents)
				}
			}
			t.Logf("%d checks; interrupted at %d of them", n, len(at))
		})
	}
}

// TestCtrlC sends a real SIGINT to the command at several moments: it
// exits 130 saying "interrupted" and leaves nothing, or — signalled after
// it finished its work — it has written everything.
func TestCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a child process")
	}
	dir := t.TempDir()
	if _, err := run(t, "gen", "biped", "-o", filepath.Join(dir, "seq"), "--frames", "30"); err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for _, after := range []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second} {
		out := filepath.Join(dir, "out")
		os.RemoveAll(out)
		os.Mkdir(out, 0o755)
		cmd, stdout, stderr := startMain(t, dir, "rig", "seq", "-o", "out/a.glb", "--report", "out/a.json")
		time.Sleep(after)
		cmd.Process.Signal(syscall.SIGINT)
		p := wait(t, cmd, stdout, stderr, 5*time.Minute)
		ents, _ := os.ReadDir(out)
		switch p.code {
		case exitInterrupted:
			stopped++
			if p.killed {
				t.Logf("SIGINT after %v came before meshrig started handling it", after)
			} else if !strings.Contains(p.stderr, "meshrig: interrupted") || strings.Contains(p.stderr, "context canceled") {
				t.Errorf("SIGINT after %v: stderr %q", after, p.stderr)
			}
			if len(ents) > 0 {
				t.Errorf("SIGINT after %v: left %v", after, ents)
			}
		case 0:
			if len(ents) != 2 {
				t.Errorf("finished before SIGINT after %v, but wrote %v", after, ents)
			}
		default:
			t.Errorf("SIGINT after %v: exit %d: %s", after, p.code, p.stderr)
		}
	}
	if stopped == 0 {
		t.Error("no run was interrupted")
	}

	// A second Ctrl-C quits at once, still leaving no temporary file.
	out := filepath.Join(dir, "out")
	os.RemoveAll(out)
	os.Mkdir(out, 0o755)
	cmd, stdout, stderr := startMain(t, dir, "rig", "seq", "-o", "out/a.glb")
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Process.Signal(syscall.SIGINT)
	p := wait(t, cmd, stdout, stderr, 5*time.Minute)
	if ents, _ := os.ReadDir(out); p.code != exitInterrupted || len(ents) > 0 {
		t.Errorf("two SIGINTs: exit %d, left %v: %s", p.code, ents, p.stderr)
	}
}

func TestInterruptedMessage(t *testing.T) {
	if !interrupted(errors.Join(errors.New("ledeng"), context.Canceled)) || interrupted(errors.New("x")) {
		t.Error("interrupted misreads errors")
	}
}
