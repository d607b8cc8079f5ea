//go:build !unix

package registry

// cpuSeconds is not measured here.
func cpuSeconds() float64 { return 0 }
