package obj

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/seq"
)

func TestParseCoord(t *testing.T) {
	for _, s := range []string{"0", "-0", "+1", "1.", ".5", "-0.03712697712633848", "1.0005083363822198",
		"1e5", "1E-5", "-2.5e+3", "123456789012345678", "0.000000000000000000001", "3.4028235e38",
		"0.1", "16777217", "1.00000005960464477539"} {
		got, ok := parseCoord([]byte(s))
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		if ok && math.Float32bits(got) != math.Float32bits(float32(x)) {
			t.Errorf("%s: %v, want %v", s, got, float32(x))
		}
	}
	for _, s := range []string{"", "-", ".", "e5", "1e", "1e+", "1x", "0x1p3", "inf", "NaN", "1_0", "1..2", "--1"} {
		if _, ok := parseCoord([]byte(s)); ok {
			t.Errorf("%q parsed", s)
		}
	}
}

// TestParseCoordNearMidpoints: shortest forms of random float64s, and of
// float64s at and next to midpoints between float32 neighbours (where
// rounding twice could go astray), parse as strconv then float32 does.
func TestParseCoordNearMidpoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(x float64) {
		for _, s := range []string{strconv.FormatFloat(x, 'g', -1, 64), strconv.FormatFloat(x, 'f', -1, 64), strconv.FormatFloat(x, 'e', 12, 64)} {
			got, ok := parseCoord([]byte(s))
			y, _ := strconv.ParseFloat(s, 64)
			if ok && math.Float32bits(got) != math.Float32bits(float32(y)) {
				t.Fatalf("%s: %v, want %v", s, got, float32(y))
			}
		}
	}
	for k := 0; k < 100000; k++ {
		x := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(12)-6))
		check(x)
		lo := float32(x)
		mid := (float64(lo) + float64(math.Nextafter32(lo, float32(math.Inf(1))))) / 2
		for _, d := range []float64{-1, 0, 1} {
			check(math.Nextafter(mid, mid+d))
		}
	}
}

// TestReadFrameAsRead: the fast path gives Read's positions rounded to
// float32, and refuses what it leaves to Read.
func TestReadFrameAsRead(t *testing.T) {
	rest, err := Read(bytes.NewReader([]byte("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{"v 0.5 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 1e-3\nf 1 2 3 4\n", true},
		{"# frame\no body\nv 0.5 0 0 # a comment\r\nv 1 0 0\r\nv 1 1 0\r\nv 0 1 0\r\ns off\nf -4 -3 -2 -1\r\n", true},
		{"f 1 2 3 4\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n", true},        // forward references
		{"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n", true}, // the same triangles
		{"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 2 3 4 1\n", false},
		{"v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n", false},
		{"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nf 1 2 3 4\n", false},
		{"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1 4/1\n", false},
		{"v 0 0 0 1 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n", false},
		{"v 0 0 nan\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n", false},
		{"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\nf 1 2 3\n", false},
	} {
		dst := make([]linalg.Vec3f, 4)
		err := ReadFrame([]byte(tc.text), rest, dst)
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v, want ok %v", tc.text, err, tc.ok)
			continue
		}
		if err == nil {
			checkAsRead(t, []byte(tc.text), rest, dst)
		}
	}
}

// checkAsRead fails unless Read accepts b as a frame of rest with
// positions dst once rounded.
func checkAsRead(t *testing.T, b []byte, rest *mesh.Mesh, dst []linalg.Vec3f) {
	t.Helper()
	m, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("ReadFrame accepts what Read refuses (%v): %q", err, b)
	}
	if err := seq.SameFaces(rest, m); err != nil {
		t.Fatalf("ReadFrame accepts other faces (%v): %q", err, b)
	}
	for i, v := range m.Verts {
		for k := range v {
			if math.Float32bits(dst[i][k]) != math.Float32bits(float32(v[k])) {
				t.Fatalf("vertex %d: %v, Read gives %v: %q", i+1, dst[i], v, b)
			}
		}
	}
}

// FuzzReadFrame: whatever ReadFrame accepts, Read accepts with the same
// faces and the same positions once rounded (for a fixed rest, and for
// the file's own mesh as rest); parseCoord agrees with strconv on every
// field it parses.
func FuzzReadFrame(f *testing.F) {
	for _, n := range []string{"testdata/quad.obj", "testdata/forms.obj", "testdata/invalid-index.obj"} {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("v 1.25e-3 -2.5E+2 .5\nv 4. 5 -6\nv 7 8 9\nf -1 -2 -3\n"))
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n"))
	fixed, err := Read(bytes.NewReader([]byte("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n")))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, line := range bytes.Split(b, []byte("\n")) {
			for _, fl := range bytes.Fields(line) {
				if got, ok := parseCoord(fl); ok {
					x, err := strconv.ParseFloat(string(fl), 64)
					if err != nil || math.Float32bits(got) != math.Float32bits(float32(x)) {
						t.Fatalf("parseCoord(%q) = %v, strconv: %v, %v", fl, got, float32(x), err)
					}
				}
			}
		}
		dst := make([]linalg.Vec3f, len(fixed.Verts))
		if ReadFrame(b, fixed, dst) == nil {
			checkAsRead(t, b, fixed, dst)
		}
		if own, err := Read(bytes.NewReader(b)); err == nil {
			dst := make([]linalg.Vec3f, len(own.Verts))
			if ReadFrame(b, own, dst) == nil {
				checkAsRead(t, b, own, dst)
			}
		}
	})
}
