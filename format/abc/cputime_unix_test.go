//go:build unix

package abc

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system, every
// thread): benchmarks report MB per CPU second beside wall-clock MB/s,
// which on a shared machine says more about the reader than about the
// machine's load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
