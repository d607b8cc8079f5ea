package mdd

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Write writes frames, played at fps frames per second, as an MDD cache
// with frame f at time f/fps. Every frame must have the same number of
// points (at least one); nothing is written otherwise.
func Write(w io.Writer, frames [][]linalg.Vec3, fps float64) error {
	if !(fps > 0) || math.IsInf(fps, 0) {
		return fmt.Errorf("mdd: frame rate %v is not positive", fps)
	}
	if len(frames) == 0 || len(frames[0]) == 0 {
		return fmt.Errorf("mdd: nothing to write (%d frames)", len(frames))
	}
	n := len(frames[0])
	for f, fr := range frames {
		if len(fr) != n {
			return fmt.Errorf("mdd: frame %d has %d points, frame 1 has %d", f+1, len(fr), n)
		}
	}
	if int64(len(frames))*(int64(n)*12+4) > maxBytes {
		return fmt.Errorf("mdd: %d frames of %d points is too large", len(frames), n)
	}
	bw := bufio.NewWriter(w)
	var b [12]byte
	binary.BigEndian.PutUint32(b[0:], uint32(len(frames)))
	binary.BigEndian.PutUint32(b[4:], uint32(n))
	bw.Write(b[:8])
	for f := range frames {
		binary.BigEndian.PutUint32(b[:], math.Float32bits(float32(float64(f)/fps)))
		bw.Write(b[:4])
	}
	for _, fr := range frames {
		for _, p := range fr {
			for k := 0; k < 3; k++ {
				binary.BigEndian.PutUint32(b[4*k:], math.Float32bits(float32(p[k])))
			}
			bw.Write(b[:])
		}
	}
	// bufio.Writer keeps the first error, so Flush reports any failed write.
	return bw.Flush()
}
