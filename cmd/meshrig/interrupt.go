package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/meshrig/meshrig/internal/safefile"
)

// errInterrupted is why a command's context ends on Ctrl-C or SIGTERM.
var errInterrupted = errors.New("interrupted")

// exitInterrupted is the shell's code for a run ended by SIGINT (128+2).
const exitInterrupted = 130

// interruptible returns a context that ends with errInterrupted on the
// first SIGINT or SIGTERM: commands stop at their next check and leave no
// output. A second signal exits at once, removing any temporary file
// still being written.
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-sig; !ok {
			return
		}
		cancel(errInterrupted)
		fmt.Fprintln(os.Stderr, "\nmeshrig: interrupting (press Ctrl-C again to quit at once)")
		if _, ok := <-sig; !ok {
			return
		}
		safefile.RemoveTemps()
		fmt.Fprintln(os.Stderr, "meshrig: interrupted")
		os.Exit(exitInterrupted)
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(sig)
		cancel(nil)
	}
}

// interrupted reports whether err comes from a cancelled context: the
// libraries return ctx.Err(), which says "context canceled".
func interrupted(err error) bool {
	return errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled)
}
