package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// ReadPoints reads n points of three float32 coordinates in byte order
// from r, as point caches store a frame; buf is scratch of at least 12·n
// bytes. A short read is ErrTruncated, a non-finite coordinate an error
// naming the point; both are *ParseError at offset off (the frame's start).
func ReadPoints(r io.Reader, buf []byte, n int, order binary.ByteOrder, off int64) ([]linalg.Vec3, error) {
	buf = buf[:12*n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, &ParseError{Offset: off, Err: Truncated(err)}
	}
	pts := make([]linalg.Vec3, n)
	for i := range pts {
		for k := 0; k < 3; k++ {
			x := float64(math.Float32frombits(order.Uint32(buf[12*i+4*k:])))
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, &ParseError{Offset: off + int64(12*i+4*k), Err: fmt.Errorf("point %d: non-finite coordinate", i+1)}
			}
			pts[i][k] = x
		}
	}
	return pts, nil
}

// Truncated maps an end-of-file error to ErrTruncated; other errors pass.
func Truncated(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return ErrTruncated
	}
	return err
}
