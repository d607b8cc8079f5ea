package pc2

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Write writes frames as a PC2 cache sampled every scene frame (30 fps),
// starting at frame 0.
func Write(w io.Writer, frames [][]linalg.Vec3) error {
	return WriteFPS(w, frames, sceneFPS)
}

// WriteFPS writes frames, played at fps frames per second, as a PC2 cache
// starting at frame 0: its sample rate is 30/fps scene frames, so Read
// gives fps back. Every frame must have the same number of points (at
// least one); nothing is written otherwise.
func WriteFPS(w io.Writer, frames [][]linalg.Vec3, fps float64) error {
	if !(fps > 0) || math.IsInf(fps, 0) {
		return fmt.Errorf("pc2: frame rate %v is not positive", fps)
	}
	if len(frames) == 0 || len(frames[0]) == 0 {
		return fmt.Errorf("pc2: nothing to write (%d frames)", len(frames))
	}
	n := len(frames[0])
	for f, fr := range frames {
		if len(fr) != n {
			return fmt.Errorf("pc2: frame %d has %d points, frame 1 has %d", f+1, len(fr), n)
		}
	}
	return WriteFrames(w, n, len(frames), fps, func(f int, _ []linalg.Vec3) []linalg.Vec3 { return frames[f] })
}

// WriteFrames writes a cache of frames frames of n points, played at fps
// frames per second, asking frame for each in turn (dst, of length n
// after the first call, may be filled and returned): a long cache is
// streamed, never held whole. Nothing is written when the sizes are out
// of range; frame must return n points.
func WriteFrames(w io.Writer, n, frames int, fps float64, frame func(f int, dst []linalg.Vec3) []linalg.Vec3) error {
	if !(fps > 0) || math.IsInf(fps, 0) {
		return fmt.Errorf("pc2: frame rate %v is not positive", fps)
	}
	if frames <= 0 || n <= 0 {
		return fmt.Errorf("pc2: nothing to write (%d frames of %d points)", frames, n)
	}
	if int64(frames)*int64(n)*12 > maxBytes {
		return fmt.Errorf("pc2: %d frames of %d points is too large", frames, n)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	h := header{Version: 1, Points: int32(n), SampleRate: float32(sceneFPS / fps), Samples: int32(frames)}
	copy(h.Magic[:], magic)
	binary.Write(bw, binary.LittleEndian, &h)
	var b [12]byte
	var fr []linalg.Vec3
	for f := 0; f < frames; f++ {
		fr = frame(f, fr)
		if len(fr) != n {
			return fmt.Errorf("pc2: frame %d has %d points, not %d", f+1, len(fr), n)
		}
		for _, p := range fr {
			for k := 0; k < 3; k++ {
				binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(float32(p[k])))
			}
			bw.Write(b[:])
		}
	}
	// bufio.Writer keeps the first error, so Flush reports any failed write.
	return bw.Flush()
}
