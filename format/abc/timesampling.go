package abc

import "math"

// acyclicTPC is the time per cycle Alembic stores for acyclic sampling
// (the largest float64 divided by 32).
const acyclicTPC = math.MaxFloat64 / 32

// TimeSampling says when a property's samples fall. Uniform sampling has
// one time (the first sample's) and a step; cyclic sampling repeats
// len(Times) times every Cycle seconds; acyclic sampling lists every
// sample's time.
type TimeSampling struct {
	// Cycle is the time per cycle in seconds: the step of uniform
	// sampling; 0 for acyclic sampling.
	Cycle float64
	// Times are the sample times of one cycle (acyclic: all of them).
	Times []float64
	// MaxSamples is the largest sample count of a property using this
	// sampling, as the writer recorded it.
	MaxSamples int
}

// Kind names the sampling: "uniform", "cyclic" or "acyclic".
func (ts TimeSampling) Kind() string {
	switch {
	case ts.Cycle == 0:
		return "acyclic"
	case len(ts.Times) == 1:
		return "uniform"
	default:
		return "cyclic"
	}
}

// Time returns the time of sample i in seconds. An acyclic sampling's
// samples past its list hold the last time.
func (ts TimeSampling) Time(i int) float64 {
	n := len(ts.Times)
	switch {
	case n == 0:
		return 0
	case ts.Cycle == 0:
		return ts.Times[min(i, n-1)]
	case n == 1:
		return ts.Times[0] + ts.Cycle*float64(i)
	default:
		return ts.Times[i%n] + ts.Cycle*float64(i/n)
	}
}

// Step returns the time between samples when n samples of this sampling
// are evenly spaced (within a millionth of the step), else 0.
func (ts TimeSampling) Step(n int) float64 {
	k := len(ts.Times)
	if n < 2 || k == 0 {
		return 0
	}
	var step float64
	switch ts.Kind() {
	case "uniform":
		return ts.Cycle
	case "acyclic":
		if n > k {
			return 0 // samples past the list all hold the last time
		}
		step = (ts.Times[n-1] - ts.Times[0]) / float64(n-1)
	default:
		step = ts.Cycle / float64(k)
		n = k // one cycle tells
	}
	if !(step > 0) {
		return 0
	}
	for i := 1; i < n; i++ {
		if math.Abs(ts.Times[i]-ts.Times[0]-step*float64(i)) > 1e-6*step {
			return 0
		}
	}
	return step
}
