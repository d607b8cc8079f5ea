//go:build !unix

package abc

import "time"

// cpuTime is not measured here; benchmarks then report wall-clock MB/s only.
func cpuTime() time.Duration { return 0 }
