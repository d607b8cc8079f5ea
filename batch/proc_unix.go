//go:build unix

package batch

import (
	"os"
	"syscall"
)

// terminate asks a child to stop, as Ctrl-C would: it finishes no
// output and removes its temporary files.
func terminate(p *os.Process) error { return p.Signal(syscall.SIGTERM) }

// usage is a finished child's CPU time and peak resident memory
// (getrusage; Linux and the BSDs give maxrss in KiB, macOS in bytes).
func usage(ps *os.ProcessState) Result {
	if ps == nil {
		return Result{}
	}
	res := Result{CPUSeconds: (ps.UserTime() + ps.SystemTime()).Seconds()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		res.PeakBytes = int64(ru.Maxrss) * maxrssUnit
	}
	return res
}

// killed tells whether the child died of SIGKILL.
func killed(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}
