package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// maxBatch bounds the bytes readRecords reads at once.
const maxBatch = 1 << 16

// ReadFrames reads count frames of n points, three float32 coordinates
// each in byte order, from r, as point caches store them, into one array
// of F·n points (frame f at [f*n, (f+1)*n)); the first frame starts at
// byte offset off of the file. what names a frame in errors ("sample",
// "frame").
//
// Memory follows the data actually there, not count (a header's claim,
// which may be corrupt): frames are read in batches that start at one
// frame and double up to 64 KiB, and the result grows as they arrive.
// Errors are *ParseError naming the frame: a short file wraps
// ErrTruncated at the offset of the first incomplete frame, a non-finite
// coordinate is at its own offset and names the point.
func ReadFrames(r io.Reader, count, n int, order binary.ByteOrder, off int64, what string) ([]linalg.Vec3f, error) {
	if n < 1 {
		return nil, fmt.Errorf("%d points per %s", n, what)
	}
	size := 12 * n
	var frames []linalg.Vec3f
	// The two orders' Uint32 inline; order's, through the interface, does not.
	le, be := order == binary.LittleEndian, order == binary.BigEndian
	k, err := readRecords(r, count, size, func(f int, rec []byte) error {
		if cap(frames)-len(frames) < n {
			// Doubling, up to the count claimed: the data decides, and an
			// honest header gets an array of exactly its size.
			c := max(min(2*cap(frames), count*n), len(frames)+n)
			frames = append(make([]linalg.Vec3f, 0, c), frames...)
		}
		at := len(frames)
		frames = frames[:at+n]
		dst := frames[at:]
		const inf = 0x7f800000 // exponent all ones: Inf or NaN
		for i := range dst {
			b := rec[12*i : 12*i+12]
			var x, y, z uint32
			switch {
			case le:
				x, y, z = binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
			case be:
				x, y, z = binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:]), binary.BigEndian.Uint32(b[8:])
			default:
				x, y, z = order.Uint32(b), order.Uint32(b[4:]), order.Uint32(b[8:])
			}
			if x&inf == inf || y&inf == inf || z&inf == inf {
				c := 0
				if x&inf != inf {
					c = 1
					if y&inf != inf {
						c = 2
					}
				}
				return &ParseError{Offset: off + int64(f)*int64(size) + int64(12*i+4*c),
					Err: fmt.Errorf("%s %d of %d: point %d: non-finite coordinate", what, f+1, count, i+1)}
			}
			dst[i] = linalg.Vec3f{math.Float32frombits(x), math.Float32frombits(y), math.Float32frombits(z)}
		}
		return nil
	})
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, &ParseError{Offset: off + int64(k)*int64(size), Err: fmt.Errorf("%s %d of %d: %w", what, k+1, count, err)}
	}
	return frames, nil
}

// ReadFloats reads count float32 values in byte order from r, the first
// at byte offset off of the file, as float64; what names a value in
// errors ("time of frame"). Like ReadFrames, memory follows the data
// there, and a short file is a *ParseError wrapping ErrTruncated at the
// first missing value.
func ReadFloats(r io.Reader, count int, order binary.ByteOrder, off int64, what string) ([]float64, error) {
	var out []float64
	k, err := readRecords(r, count, 4, func(_ int, rec []byte) error {
		out = append(out, float64(math.Float32frombits(order.Uint32(rec))))
		return nil
	})
	if err != nil {
		return nil, &ParseError{Offset: off + 4*int64(k), Err: fmt.Errorf("%s %d of %d: %w", what, k+1, count, err)}
	}
	return out, nil
}

// readRecords reads count records of size bytes from r and hands each to
// use with its index. Batches start at one record and double up to
// maxBatch bytes (or one record, when larger), so a count the file does
// not back costs no more than the bytes it does hold. When r fails
// first, every complete record has been used and it returns the index
// of the first incomplete one with the read error (ErrTruncated for an
// early end); use's error stops it at once.
func readRecords(r io.Reader, count, size int, use func(k int, rec []byte) error) (int, error) {
	most := max(1, maxBatch/size)
	var buf []byte
	k := 0
	for batch := 1; k < count; batch = min(2*batch, most) {
		m := min(batch, count-k) * size
		if cap(buf) < m {
			buf = make([]byte, m)
		}
		got, err := io.ReadFull(r, buf[:m])
		for i := 0; i+size <= got; i += size {
			if err := use(k, buf[i:i+size]); err != nil {
				return k, err
			}
			k++
		}
		if err != nil {
			return k, Truncated(err)
		}
	}
	return k, nil
}

// Truncated maps an end-of-file error to ErrTruncated; other errors pass.
func Truncated(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return ErrTruncated
	}
	return err
}
