package mdd

import (
	"bufio"
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

// Read reads an MDD cache whose rest mesh has n vertices: one slice of n
// points per frame, and the frame rate when the times are evenly spaced
// and increasing (0 otherwise: the file has no usable rate, and
// format.Load then uses 30 fps). Errors are *format.ParseError with the
// byte offset: a short file wraps format.ErrTruncated and names the
// frame, a point count other than n names both counts, a non-finite
// coordinate names the frame and the point.
func Read(r io.Reader, n int) ([][]linalg.Vec3, float64, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var hdr [2]int32
	if err := binary.Read(br, binary.BigEndian, &hdr); err != nil {
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
	// Grow with the data rather than trusting the header's count.
	times := make([]float64, 0, min(int(nf), 1024))
	var b [4]byte
	for f := 0; f < int(nf); f++ {
		off := int64(8 + 4*f)
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, 0, &format.ParseError{Offset: off, Err: fmt.Errorf("time of frame %d of %d: %w", f+1, nf, format.Truncated(err))}
		}
		times = append(times, float64(math.Float32frombits(binary.BigEndian.Uint32(b[:]))))
	}
	off := int64(8 + 4*int(nf))
	buf := make([]byte, 12*n)
	frames := make([][]linalg.Vec3, 0, min(int(nf), 1024))
	for f := 0; f < int(nf); f++ {
		pts, err := format.ReadPoints(br, buf, n, binary.BigEndian, off)
		if err != nil {
			return nil, 0, fmt.Errorf("frame %d of %d: %w", f+1, nf, err)
		}
		frames = append(frames, pts)
		off += int64(len(buf))
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
