package main

import "syscall"

// peakRSS returns the process's peak resident set size in bytes
// (getrusage's maxrss, which Linux reports in kilobytes), or 0 when the
// system does not say.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}
