package par

import (
	"runtime"
	"testing"
)

func TestForCoversOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		hits := make([]int, n)
		For(n, 3, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				hits[i]++
			}
		})
		for i, h := range hits {
			if h != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, h)
			}
		}
	}
}

func TestSumDeterministic(t *testing.T) {
	f := func(lo, hi int) float64 {
		var s float64
		for i := lo; i < hi; i++ {
			s += 1 / float64(i+1)
		}
		return s
	}
	old := runtime.GOMAXPROCS(1)
	a := Sum(100000, 1000, f)
	runtime.GOMAXPROCS(8)
	b := Sum(100000, 1000, f)
	runtime.GOMAXPROCS(old)
	if a != b {
		t.Fatalf("sum depends on GOMAXPROCS: %v vs %v", a, b)
	}
}
