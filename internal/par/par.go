// Package par runs loops over index ranges on every core with fixed
// chunking, so results that each index writes on its own are the same
// whatever GOMAXPROCS is.
package par

import (
	"runtime"
	"sync"
)

// For calls fn(lo, hi) over [0, n) split into chunks of at most grain
// indices, on up to GOMAXPROCS goroutines, and returns when all are done.
// Chunk bounds depend only on n and grain. fn must write only to data its
// own range owns.
func For(n, grain int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	if grain < 1 {
		grain = 1
	}
	chunks := (n + grain - 1) / grain
	workers := runtime.GOMAXPROCS(0)
	if workers > chunks {
		workers = chunks
	}
	if workers <= 1 {
		for lo := 0; lo < n; lo += grain {
			fn(lo, min(lo+grain, n))
		}
		return
	}
	var next int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				c := next
				next++
				mu.Unlock()
				if int(c) >= chunks {
					return
				}
				lo := int(c) * grain
				fn(lo, min(lo+grain, n))
			}
		}()
	}
	wg.Wait()
}

// Sum returns Σ part(lo, hi) over fixed chunks of [0, n), added in chunk
// order, so the floating-point result does not depend on scheduling.
func Sum(n, grain int, part func(lo, hi int) float64) float64 {
	if n <= 0 {
		return 0
	}
	if grain < 1 {
		grain = 1
	}
	sums := make([]float64, (n+grain-1)/grain)
	For(n, grain, func(lo, hi int) { sums[lo/grain] = part(lo, hi) })
	var s float64
	for _, v := range sums {
		s += v
	}
	return s
}
