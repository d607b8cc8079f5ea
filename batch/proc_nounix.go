//go:build !unix

package batch

import "os"

// terminate stops a child; without signals, by killing it (its temporary
// files are then left, and removed before the item runs again).
func terminate(p *os.Process) error { return p.Kill() }

// usage is a finished child's CPU time (peak memory is not known here).
func usage(ps *os.ProcessState) Result {
	if ps == nil {
		return Result{}
	}
	return Result{CPUSeconds: (ps.UserTime() + ps.SystemTime()).Seconds()}
}

func killed(ps *os.ProcessState) bool { return false }
