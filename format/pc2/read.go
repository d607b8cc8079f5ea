package pc2

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

func init() {
	format.Register(format.Format{Name: "pc2", Exts: []string{".pc2"}, Cache: Read})
}

const (
	magic      = "POINTCACHE2\x00"
	headerSize = 32
	// sceneFPS is the scene frame rate assumed for the sample spacing.
	sceneFPS = 30
	// maxBytes bounds the point data a header may announce (2 GiB), so a
	// corrupt count is refused before anything is allocated for it.
	maxBytes = 1 << 31
)

// header is the file's first 32 bytes.
type header struct {
	Magic      [12]byte
	Version    int32
	Points     int32
	Start      float32
	SampleRate float32 // scene frames between samples
	Samples    int32
}

// Read reads a PC2 cache whose rest mesh has n vertices: F·n points,
// sample f's at [f*n, (f+1)*n), as the file holds them (float32), and the samples per second (30 / sample rate; 0 when
// the rate is not a positive finite number). Errors are *format.ParseError
// with the byte offset: a short file wraps format.ErrTruncated and names
// the sample, a point count other than n names both counts, a
// non-finite coordinate names the sample and the point.
func Read(r io.Reader, n int) ([]linalg.Vec3f, float64, error) {
	var h header
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
		return nil, 0, &format.ParseError{Offset: 0, Err: fmt.Errorf("%d-byte header: %w", headerSize, format.Truncated(err))}
	}
	if string(h.Magic[:]) != magic {
		return nil, 0, &format.ParseError{Offset: 0, Err: errors.New("not a PC2 file (no POINTCACHE2 signature)")}
	}
	if h.Version != 1 {
		return nil, 0, &format.ParseError{Offset: 12, Err: fmt.Errorf("version %d: %w", h.Version, format.ErrUnsupported)}
	}
	if h.Points <= 0 {
		return nil, 0, &format.ParseError{Offset: 16, Err: fmt.Errorf("cache has %d points", h.Points)}
	}
	if int(h.Points) != n {
		return nil, 0, &format.ParseError{Offset: 16, Err: fmt.Errorf("cache has %d points, the rest mesh has %d vertices", h.Points, n)}
	}
	if h.Samples < 0 || int64(h.Samples)*int64(h.Points)*12 > maxBytes {
		return nil, 0, &format.ParseError{Offset: 28, Err: fmt.Errorf("sample count %d out of range (%d points each)", h.Samples, h.Points)}
	}
	// ReadFrames buffers what it reads, growing with the data rather than
	// trusting the header's count.
	frames, err := format.ReadFrames(r, int(h.Samples), n, binary.LittleEndian, headerSize, "sample")
	if err != nil {
		return nil, 0, err
	}
	return frames, fps(h.SampleRate), nil
}

// fps converts a sample spacing in scene frames into samples per second,
// rounded to 1e-3 so that float32 spacings such as 1.2 give back 25.
func fps(rate float32) float64 {
	r := float64(rate)
	if !(r > 0) || math.IsInf(r, 0) {
		return 0
	}
	return math.Round(sceneFPS/r*1e3) / 1e3
}
