package main

import (
	"fmt"
	"math"
)

// Flag ranges are checked before any input is read, so a bad number
// never costs a run.

// intIn checks that an integer flag lies in [lo, hi].
func intIn(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d: want %d to %d", flag, v, lo, hi)
	}
	return nil
}

// intOrZero checks that an integer flag is 0 (its default) or in [lo, hi].
func intOrZero(flag string, v, lo, hi int) error {
	if v == 0 {
		return nil
	}
	if v < lo || v > hi {
		return fmt.Errorf("%s %d: want %d to %d, or 0 for the default", flag, v, lo, hi)
	}
	return nil
}

// floatIn checks that a number flag is finite and in [lo, hi].
func floatIn(flag string, v, lo, hi float64) error {
	if math.IsNaN(v) || v < lo || v > hi {
		return fmt.Errorf("%s %g: want a number from %g to %g", flag, v, lo, hi)
	}
	return nil
}

// floatOrZero checks that a number flag is 0 (its default) or a finite
// number in [lo, hi].
func floatOrZero(flag string, v, lo, hi float64) error {
	if v == 0 {
		return nil
	}
	if math.IsNaN(v) || v < lo || v > hi {
		return fmt.Errorf("%s %g: want a number from %g to %g, or 0 for the default", flag, v, lo, hi)
	}
	return nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
