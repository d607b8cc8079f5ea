// Package pc2 reads and writes PC2 point caches (Blender, 3ds Max): a
// 32-byte header — "POINTCACHE2\0", version 1, point count, start frame,
// sample rate, sample count — then every sample's points as little-endian
// float32 x, y, z. A cache holds positions only; the faces and rest pose
// come from a mesh file given beside it.
//
// Importing the package registers ".pc2" with package format.
package pc2

import (
	"bufio"
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

const magic = "POINTCACHE2\x00"

// maxValues bounds the floats a header may announce (2 GiB of float32).
const maxValues = 1 << 29

// Read reads a PC2 cache of n points per frame. The header's sample rate
// is the spacing of samples in frames (1 = every frame); the returned rate
// is 30/sampleRate frames per second when that is positive — PC2 carries
// no time base, and 30 fps is the common default. Errors are
// *format.ParseError with the byte offset.
func Read(r io.Reader, n int) ([][]linalg.Vec3, float64, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var hdr struct {
		Magic      [12]byte
		Version    int32
		Points     int32
		Start      float32
		SampleRate float32
		Samples    int32
	}
	if err := binary.Read(br, binary.LittleEndian, &hdr); err != nil {
		return nil, 0, &format.ParseError{Offset: 0, Err: fmt.Errorf("header: %w", format.Truncated(err))}
	}
	if string(hdr.Magic[:]) != magic {
		return nil, 0, &format.ParseError{Offset: 0, Err: errors.New("not a PC2 file (no POINTCACHE2 signature)")}
	}
	if hdr.Version != 1 {
		return nil, 0, &format.ParseError{Offset: 12, Err: fmt.Errorf("version %d: %w", hdr.Version, format.ErrUnsupported)}
	}
	if hdr.Points <= 0 {
		return nil, 0, &format.ParseError{Offset: 16, Err: fmt.Errorf("cache has %d points", hdr.Points)}
	}
	if int(hdr.Points) != n {
		return nil, 0, &format.ParseError{Offset: 16, Err: fmt.Errorf("cache has %d points, the rest mesh has %d vertices", hdr.Points, n)}
	}
	if hdr.Samples < 0 || int64(hdr.Samples)*int64(hdr.Points)*3 > maxValues {
		return nil, 0, &format.ParseError{Offset: 28, Err: fmt.Errorf("sample count %d out of range", hdr.Samples)}
	}
	frames := make([][]linalg.Vec3, 0, min(int(hdr.Samples), 4096))
	buf := make([]byte, 12*n)
	off := int64(32)
	for f := 0; f < int(hdr.Samples); f++ {
		pts, err := format.ReadPoints(br, buf, n, binary.LittleEndian, off)
		if err != nil {
			return nil, 0, fmt.Errorf("sample %d: %w", f+1, err)
		}
		frames = append(frames, pts)
		off += int64(len(buf))
	}
	fps := 0.0
	if hdr.SampleRate > 0 && !math.IsInf(float64(hdr.SampleRate), 0) {
		fps = 30 / float64(hdr.SampleRate)
	}
	return frames, fps, nil
}

// Write writes frames (all of one point count) as a PC2 cache starting at
// frame 0 with a sample every frame.
func Write(w io.Writer, frames [][]linalg.Vec3) error {
	n := 0
	if len(frames) > 0 {
		n = len(frames[0])
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(magic)
	binary.Write(bw, binary.LittleEndian, []int32{1, int32(n)})
	binary.Write(bw, binary.LittleEndian, []float32{0, 1})
	binary.Write(bw, binary.LittleEndian, int32(len(frames)))
	for f, fr := range frames {
		if len(fr) != n {
			return fmt.Errorf("frame %d has %d points, frame 1 has %d", f+1, len(fr), n)
		}
		for _, p := range fr {
			binary.Write(bw, binary.LittleEndian, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
		}
	}
	return bw.Flush()
}
