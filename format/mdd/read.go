package mdd

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

func init() {
	format.Register(format.Format{Name: "mdd", Exts: []string{".mdd"}, Cache: Read})
}

// maxBytes bounds the data a header may announce (2 GiB), so a corrupt
// count is refused before anything is allocated for it.
const maxBytes = 1 << 31

// Read reads an MDD cache whose rest mesh has n vertices: F·n points,
// frame f's at [f*n, (f+1)*n), as the file holds them (float32), and the frame rate when the times are evenly spaced
// and increasing (0 otherwise: the file has no usable rate, and
// format.Load then uses 30 fps). Errors are *format.ParseError with the
// byte offset: a short file wraps format.ErrTruncated and names the
// frame, a point count other than n names both counts, a non-finite
// coordinate names the frame and the point.
func Read(r io.Reader, n int) ([]linalg.Vec3f, float64, error) {
	var hdr [2]int32
	if err := binary.Read(r, binary.BigEndian, &hdr); err != nil {
		return nil, 0, &format.ParseError{Offset: 0, Err: fmt.Errorf("8-byte header: %w", format.Truncated(err))}
	}
	nf, np := hdr[0], hdr[1]
	if np <= 0 {
		return nil, 0, &format.ParseError{Offset: 4, Err: fmt.Errorf("cache has %d points", np)}
	}
	if int(np) != n {
		return nil, 0, &format.ParseError{Offset: 4, Err: fmt.Errorf("cache has %d points, the rest mesh has %d vertices", np, n)}
	}
	if nf < 0 || int64(nf)*(int64(np)*12+4) > maxBytes {
		return nil, 0, &format.ParseError{Offset: 0, Err: fmt.Errorf("frame count %d out of range (%d points each)", nf, np)}
	}
	// ReadFloats and ReadFrames buffer what they read, growing with the
	// data rather than trusting the header's count.
	times, err := format.ReadFloats(r, int(nf), binary.BigEndian, 8, "time of frame")
	if err != nil {
		return nil, 0, err
	}
	frames, err := format.ReadFrames(r, int(nf), n, binary.BigEndian, 8+4*int64(nf), "frame")
	if err != nil {
		return nil, 0, err
	}
	return frames, rate(times), nil
}

// rate returns 1/step for evenly spaced increasing times (within 0.1% of
// a step), rounded to 1e-3 fps so that float32 times of 1/24 s give 24;
// else 0.
func rate(times []float64) float64 {
	if len(times) < 2 {
		return 0
	}
	step := (times[len(times)-1] - times[0]) / float64(len(times)-1)
	if !(step > 0) || math.IsInf(step, 0) {
		return 0
	}
	for i, t := range times {
		if !(math.Abs(t-times[0]-float64(i)*step) <= 1e-3*step) {
			return 0
		}
	}
	return math.Round(1e3/step) / 1e3
}
