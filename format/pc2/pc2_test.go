package pc2

import (
	"bytes"
	"errors"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

func frames(n, f int) [][]linalg.Vec3 {
	out := make([][]linalg.Vec3, f)
	for k := range out {
		out[k] = make([]linalg.Vec3, n)
		for i := range out[k] {
			out[k][i] = linalg.Vec3{float64(i), float64(k), 0.5}
		}
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	in := frames(5, 3)
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	got, fps, err := Read(bytes.NewReader(buf.Bytes()), 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || fps != 30 || got[2][4] != in[2][4] {
		t.Fatalf("got %d frames at %v fps, last %v", len(got), fps, got[2][4])
	}
}

func TestErrors(t *testing.T) {
	var buf bytes.Buffer
	Write(&buf, frames(5, 3))
	good := buf.Bytes()
	bad := append([]byte(nil), good...)
	bad[0] = 'X'
	cases := map[string]struct {
		data []byte
		n    int
		is   error
	}{
		"truncated data":   {good[:len(good)-7], 5, format.ErrTruncated},
		"truncated header": {good[:20], 5, format.ErrTruncated},
		"wrong count":      {good, 6, nil},
		"signature":        {bad, 5, nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := Read(bytes.NewReader(tc.data), tc.n)
			var pe *format.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want %v", err, tc.is)
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	Write(&buf, frames(3, 2))
	f.Add(buf.Bytes(), 3)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 || n > 1000 {
			return
		}
		fr, _, err := Read(bytes.NewReader(data), n)
		if err != nil {
			return
		}
		for _, x := range fr {
			if len(x) != n {
				t.Fatalf("frame of %d points, want %d", len(x), n)
			}
		}
	})
}
