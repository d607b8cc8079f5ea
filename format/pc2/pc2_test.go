package pc2

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/testrig"
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

// TestLoadWithRestMesh loads a cache through format.Load with its rest
// mesh given beside it, as `meshrig rig rest.obj anim.pc2` does.
func TestLoadWithRestMesh(t *testing.T) {
	r := testrig.Tube(t, 4, linalg.Vec3{})
	dir := t.TempDir()
	var ob bytes.Buffer
	obj.Write(&ob, r.Mesh)
	os.WriteFile(filepath.Join(dir, "rest.obj"), ob.Bytes(), 0o644)
	var fr [][]linalg.Vec3
	for f := 0; f < 4; f++ {
		fr = append(fr, r.Frame(nil, 0, f))
	}
	var cb bytes.Buffer
	Write(&cb, fr)
	os.WriteFile(filepath.Join(dir, "anim.pc2"), cb.Bytes(), 0o644)
	in, err := format.Load([]string{filepath.Join(dir, "rest.obj"), filepath.Join(dir, "anim.pc2")}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Sequence.F() != 4 || in.Sequence.Clips[0].Name != "anim" {
		t.Fatalf("F=%d clips %+v", in.Sequence.F(), in.Sequence.Clips)
	}
	if _, err := format.Load([]string{filepath.Join(dir, "anim.pc2")}, format.LoadOptions{}); err == nil {
		t.Fatal("a cache without a rest mesh was accepted")
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
