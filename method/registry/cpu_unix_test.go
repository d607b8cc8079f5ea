//go:build unix

package registry

import "syscall"

// cpuSeconds is the process's user + system CPU time so far: on a
// machine shared with other jobs it measures the work where wall-clock
// time measures the queue.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
