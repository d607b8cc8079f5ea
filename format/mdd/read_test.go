package mdd

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
	fr, fps, err := readFile(t, "tiny.mdd", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(fr) != 3 || fps != 24 {
		t.Fatalf("%d frames at %v fps, want 3 at 24", len(fr), fps)
	}
	if fr[0][1] != (linalg.Vec3{1, 0, 0}) || fr[1][2] != (linalg.Vec3{0, 1, 1.5}) {
		t.Errorf("points %v %v", fr[0][1], fr[1][2])
	}
	// Times 0, 0.1, 0.5 s have no single rate.
	if fr, fps, err := readFile(t, "uneven.mdd", 3); err != nil || fps != 0 || len(fr) != 3 {
		t.Errorf("uneven: %d frames at %v fps, %v", len(fr), fps, err)
	}
}

func TestRoundTrip(t *testing.T) {
	in := make([][]linalg.Vec3, 7)
	for f := range in {
		in[f] = make([]linalg.Vec3, 5)
		for i := range in[f] {
			in[f][i] = linalg.Vec3{float64(i), -float64(f), 0.25 * float64(i*f)}
		}
	}
	for _, fps := range []float64{30, 24, 25, 29.97, 60} {
		var buf bytes.Buffer
		if err := Write(&buf, in, fps); err != nil {
			t.Fatal(err)
		}
		if buf.Len() != 8+7*4+7*5*12 {
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
	tiny, _ := os.ReadFile("testdata/tiny.mdd")
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
	const data = 8 + 3*4 // first frame's points
	for _, tc := range []struct {
		name   string
		data   []byte
		n      int
		is     error
		offset int64
		want   []string
	}{
		{"short header", tiny[:6], 3, format.ErrTruncated, 0, []string{"header"}},
		{"no points", mod(4, 0, 0, 0, 0), 3, nil, 4, []string{"0 points"}},
		{"point count", tiny, 4, nil, 4, []string{"3 points", "4 vertices"}},
		{"absurd frame count", file("invalid-frames.mdd"), 3, nil, 0, []string{"frame count 2147483647"}},
		{"negative frame count", mod(0, 0xff, 0xff, 0xff, 0xff), 3, nil, 0, []string{"frame count -1"}},
		{"truncated times", file("invalid-times.mdd"), 3, format.ErrTruncated, 12, []string{"time of frame 2 of 3"}},
		{"truncated points", file("invalid-truncated.mdd"), 3, format.ErrTruncated, data + 2*36, []string{"frame 3 of 3"}},
		{"infinite", file("invalid-nan.mdd"), 3, nil, data + 2*36 + 2*12 + 8, []string{"frame 3 of 3", "point 3", "non-finite"}},
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
		if err := Write(&buf, tc.frames, tc.fps); err == nil || buf.Len() != 0 {
			t.Errorf("%s: err %v, %d bytes written", name, err, buf.Len())
		}
	}
}
