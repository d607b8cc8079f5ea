package pc2

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

func readFile(t *testing.T, name string, n int) ([][]linalg.Vec3, float64, error) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return readSplit(bytes.NewReader(b), n)
}

// readSplit reads as Read does and splits the frames apart.
func readSplit(r io.Reader, n int) ([][]linalg.Vec3, float64, error) {
	flat, fps, err := Read(r, n)
	if n < 1 {
		return nil, fps, err
	}
	var frames [][]linalg.Vec3
	for k := 0; k+n <= len(flat); k += n {
		fr := make([]linalg.Vec3, n)
		for i := range fr {
			fr[i] = flat[k+i].Vec3()
		}
		frames = append(frames, fr)
	}
	return frames, fps, err
}

func TestReadTiny(t *testing.T) {
	fr, fps, err := readFile(t, "tiny.pc2", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(fr) != 2 || fps != 30 {
		t.Fatalf("%d samples at %v fps, want 2 at 30", len(fr), fps)
	}
	if fr[0][1] != (linalg.Vec3{1, 0, 0}) || fr[1][2] != (linalg.Vec3{0, 1, 1.5}) {
		t.Errorf("points %v %v", fr[0][1], fr[1][2])
	}
	// A sample every half frame is 60 samples per second of a 30 fps scene.
	if _, fps, err := readFile(t, "half-rate.pc2", 3); err != nil || fps != 60 {
		t.Errorf("half-rate: %v fps, %v", fps, err)
	}
}

func TestRoundTrip(t *testing.T) {
	in := make([][]linalg.Vec3, 4)
	for f := range in {
		in[f] = make([]linalg.Vec3, 5)
		for i := range in[f] {
			in[f][i] = linalg.Vec3{float64(i), -float64(f), 0.25 * float64(i*f)}
		}
	}
	for _, fps := range []float64{30, 24, 25, 60, 120} {
		var buf bytes.Buffer
		if err := WriteFPS(&buf, in, fps); err != nil {
			t.Fatal(err)
		}
		if buf.Len() != headerSize+4*5*12 {
			t.Fatalf("%d bytes", buf.Len())
		}
		got, gotFPS, err := readSplit(&buf, 5)
		if err != nil {
			t.Fatal(err)
		}
		if gotFPS != fps {
			t.Errorf("wrote %v fps, read %v", fps, gotFPS)
		}
		for f := range in {
			for i := range in[f] {
				if got[f][i] != in[f][i] {
					t.Fatalf("frame %d point %d: %v, wrote %v", f, i, got[f][i], in[f][i])
				}
			}
		}
	}
}

func TestReadErrors(t *testing.T) {
	tiny, _ := os.ReadFile("testdata/tiny.pc2")
	mod := func(off int, b ...byte) []byte {
		out := append([]byte(nil), tiny...)
		copy(out[off:], b)
		return out
	}
	file := func(name string) []byte {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		n      int
		is     error
		offset int64
		want   []string
	}{
		{"short header", tiny[:20], 3, format.ErrTruncated, 0, []string{"header"}},
		{"signature", mod(0, 'X'), 3, nil, 0, []string{"not a PC2"}},
		{"version", file("invalid-version.pc2"), 3, format.ErrUnsupported, 12, []string{"version 2"}},
		{"no points", mod(16, 0), 3, nil, 16, []string{"0 points"}},
		{"point count", tiny, 4, nil, 16, []string{"3 points", "4 vertices"}},
		{"absurd sample count", file("invalid-samples.pc2"), 3, nil, 28, []string{"sample count 2147483647"}},
		{"negative sample count", mod(28, 0xff, 0xff, 0xff, 0xff), 3, nil, 28, []string{"sample count -1"}},
		{"truncated", file("invalid-truncated.pc2"), 3, format.ErrTruncated, 32 + 36, []string{"sample 2 of 2"}},
		{"nan", file("invalid-nan.pc2"), 3, nil, 32 + 36 + 12 + 4, []string{"sample 2 of 2", "point 2", "non-finite"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(bytes.NewReader(tc.data), tc.n)
			var pe *format.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if pe.Offset != tc.offset {
				t.Errorf("offset %d, want %d (%v)", pe.Offset, tc.offset, err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err = %v, want %v", err, tc.is)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want it to say %q", err, w)
				}
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	one := []linalg.Vec3{{1, 2, 3}}
	for name, tc := range map[string]struct {
		frames [][]linalg.Vec3
		fps    float64
	}{
		"ragged":    {[][]linalg.Vec3{one, {{1, 2, 3}, {4, 5, 6}}}, 30},
		"no frames": {nil, 30},
		"no points": {[][]linalg.Vec3{{}}, 30},
		"zero fps":  {[][]linalg.Vec3{one}, 0},
	} {
		var buf bytes.Buffer
		if err := WriteFPS(&buf, tc.frames, tc.fps); err == nil || buf.Len() != 0 {
			t.Errorf("%s: err %v, %d bytes written", name, err, buf.Len())
		}
	}
}
