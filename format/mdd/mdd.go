// Package mdd reads and writes MDD point caches (LightWave, Blender):
// big-endian int32 frame count and point count, the frames' times as
// float32 seconds, then every frame's points as float32 x, y, z. The faces
// and rest pose come from a mesh file given beside it.
//
// Importing the package registers ".mdd" with package format.
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

// maxValues bounds the floats a header may announce (2 GiB of float32).
const maxValues = 1 << 29

// Read reads an MDD cache of n points per frame; the rate comes from the
// frame times when they are evenly spaced (0 otherwise). Errors are
// *format.ParseError with the byte offset.
func Read(r io.Reader, n int) ([][]linalg.Vec3, float64, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var hdr [2]int32
	if err := binary.Read(br, binary.BigEndian, &hdr); err != nil {
		return nil, 0, &format.ParseError{Offset: 0, Err: fmt.Errorf("header: %w", format.Truncated(err))}
	}
	nf, np := hdr[0], hdr[1]
	if np <= 0 {
		return nil, 0, &format.ParseError{Offset: 4, Err: fmt.Errorf("cache has %d points", np)}
	}
	if int(np) != n {
		return nil, 0, &format.ParseError{Offset: 4, Err: fmt.Errorf("cache has %d points, the rest mesh has %d vertices", np, n)}
	}
	if nf < 0 || int64(nf)*(int64(np)*3+1) > maxValues {
		return nil, 0, &format.ParseError{Offset: 0, Err: fmt.Errorf("frame count %d out of range", nf)}
	}
	// Grow with the data rather than trusting the header's count.
	times := make([]float32, 0, min(int(nf), 4096))
	for f := 0; f < int(nf); f++ {
		var t float32
		if err := binary.Read(br, binary.BigEndian, &t); err != nil {
			return nil, 0, &format.ParseError{Offset: int64(8 + 4*f), Err: fmt.Errorf("time of frame %d of %d: %w", f+1, nf, format.Truncated(err))}
		}
		times = append(times, t)
	}
	off := int64(8 + 4*int(nf))
	buf := make([]byte, 12*n)
	frames := make([][]linalg.Vec3, 0, min(int(nf), 4096))
	for f := 0; f < int(nf); f++ {
		pts, err := format.ReadPoints(br, buf, n, binary.BigEndian, off)
		if err != nil {
			return nil, 0, fmt.Errorf("frame %d: %w", f+1, err)
		}
		frames = append(frames, pts)
		off += int64(len(buf))
	}
	return frames, rate(times), nil
}

// rate returns 1/step for evenly spaced increasing times, else 0.
func rate(times []float32) float64 {
	if len(times) < 2 {
		return 0
	}
	step := float64(times[len(times)-1]-times[0]) / float64(len(times)-1)
	if !(step > 0) {
		return 0
	}
	for i, t := range times {
		if math.Abs(float64(t)-float64(times[0])-float64(i)*step) > 1e-3*step {
			return 0
		}
	}
	return math.Round(1e3/step) / 1e3
}

// Write writes frames at fps as an MDD cache.
func Write(w io.Writer, frames [][]linalg.Vec3, fps float64) error {
	n := 0
	if len(frames) > 0 {
		n = len(frames[0])
	}
	bw := bufio.NewWriter(w)
	binary.Write(bw, binary.BigEndian, [2]int32{int32(len(frames)), int32(n)})
	for f := range frames {
		binary.Write(bw, binary.BigEndian, float32(float64(f)/fps))
	}
	for f, fr := range frames {
		if len(fr) != n {
			return fmt.Errorf("frame %d has %d points, frame 1 has %d", f+1, len(fr), n)
		}
		for _, p := range fr {
			binary.Write(bw, binary.BigEndian, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
		}
	}
	return bw.Flush()
}
