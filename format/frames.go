package format

import (
	"fmt"
	"strconv"
	"strings"
)

// FrameRange selects frames First to Last (1-based, inclusive) of each
// clip. First 0 means from the first frame, Last 0 to the last; the zero
// value selects every frame. A Last past a clip's end stops at its end; a
// clip with fewer than First frames is an error, as it would be left with
// none.
//
// "Each clip" is each animation of a scene file, each folder, glob or
// point cache, and the mesh files given one by one (one clip together),
// so with several inputs A:B keeps frames A to B of every one of them.
type FrameRange struct {
	First, Last int
}

// ParseFrameRange reads "A:B", "A:" (A to the end) or ":B" (1 to B), with
// A ≥ 1 and B ≥ A. Its errors say what is wrong, leaving the caller to
// quote s.
func ParseFrameRange(s string) (FrameRange, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok || (a == "" && b == "") {
		return FrameRange{}, fmt.Errorf("want A:B (frames A to B, counted from 1), A: or :B")
	}
	var r FrameRange
	for _, end := range []struct {
		text string
		to   *int
		what string
	}{{a, &r.First, "first"}, {b, &r.Last, "last"}} {
		if end.text == "" {
			continue
		}
		n, err := strconv.Atoi(end.text)
		if err != nil {
			return FrameRange{}, fmt.Errorf("the %s frame %q is not a whole number", end.what, end.text)
		}
		if n < 1 {
			return FrameRange{}, fmt.Errorf("the %s frame is %d: frames count from 1", end.what, n)
		}
		*end.to = n
	}
	if r.Last > 0 && r.Last < r.First {
		return FrameRange{}, fmt.Errorf("the last frame (%d) comes before the first (%d)", r.Last, r.First)
	}
	return r, nil
}

// Validate reports a range no clip can satisfy: a negative end, or Last
// before First.
func (r FrameRange) Validate() error {
	if r.First < 0 || r.Last < 0 {
		return fmt.Errorf("frames %d:%d: frames count from 1", r.First, r.Last)
	}
	if r.Last > 0 && r.Last < max(r.First, 1) {
		return fmt.Errorf("frames %d:%d: the last frame comes before the first", r.First, r.Last)
	}
	return nil
}

// All reports whether r selects every frame.
func (r FrameRange) All() bool { return r.First <= 1 && r.Last == 0 }

// Span returns the 0-based frames [lo, hi) that r keeps of a clip of n
// frames, or an error when it keeps none.
func (r FrameRange) Span(n int) (lo, hi int, err error) {
	lo, hi = max(r.First, 1)-1, n
	if r.Last > 0 {
		hi = min(r.Last, n)
	}
	if lo >= n {
		return 0, 0, fmt.Errorf("%d frames, none of frames %s", n, r)
	}
	return lo, hi, nil
}

// String returns the range as ParseFrameRange reads it ("" for all).
func (r FrameRange) String() string {
	if r.All() {
		return ""
	}
	s := ""
	if r.First > 1 {
		s = strconv.Itoa(r.First)
	}
	s += ":"
	if r.Last > 0 {
		s += strconv.Itoa(r.Last)
	}
	return s
}
