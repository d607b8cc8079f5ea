package libigl

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
)

func TestTGF(t *testing.T) {
	b, _ := os.ReadFile("testdata/chain.tgf")
	g, err := ReadTGF(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Joints) != 3 || len(g.Bones) != 2 || g.Bones[1] != [2]int{1, 2} {
		t.Fatalf("%+v", g)
	}
	for _, bad := range []string{"1 0 0\n", "1 0 0 x\n", "1 0 0 0\n#\n1 2\n#\n", "1 0 0 0\n2 1 0 0\n#\n1 1\n#\n", ""} {
		if _, err := ReadTGF(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestDMATRoundTrip(t *testing.T) {
	b, _ := os.ReadFile("testdata/small.dmat")
	m, err := ReadDMAT(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// "2 3": 2 columns, 3 rows, column-major.
	if m.Rows != 3 || m.Cols != 2 || m.At(0, 1) != 4 || m.At(2, 0) != 3 {
		t.Fatalf("%+v", m)
	}
	for _, bin := range []bool{false, true} {
		var buf bytes.Buffer
		if err := WriteDMAT(&buf, m, bin); err != nil {
			t.Fatal(err)
		}
		back, err := ReadDMAT(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if back.Rows != m.Rows || back.Cols != m.Cols {
			t.Fatalf("binary=%v: %dx%d", bin, back.Rows, back.Cols)
		}
		for k := range m.Data {
			if back.Data[k] != m.Data[k] {
				t.Fatalf("binary=%v: value %d differs", bin, k)
			}
		}
	}
	// The single-line binary header variant.
	var buf bytes.Buffer
	buf.WriteString("0 1 2\n")
	buf.Write([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40})
	v, err := ReadDMAT(&buf)
	if err != nil || v.At(0, 0) != 1 || v.At(1, 0) != 2 {
		t.Fatalf("0 cols rows header: %v %+v", err, v)
	}
}

func TestDMATErrors(t *testing.T) {
	for _, tc := range []struct {
		in string
		is error
	}{
		{"2 3\n1\n2\n", format.ErrTruncated},
		{"0 0\n2 3\n\x00\x00", format.ErrTruncated},
		{"x y\n", nil},
		{"99999999 99999999\n", nil},
		{"1 1\nnan\n", nil},
	} {
		_, err := ReadDMAT(strings.NewReader(tc.in))
		if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("%q: err = %v", tc.in, err)
		}
	}
}

func TestTransformsLayout(t *testing.T) {
	// One bone: A = rotation by 90° about z, t = (1, 2, 3), stored [Aᵀ; tᵀ].
	tab := "0 1 0\n-1 0 0\n0 0 1\n1 2 3\n"
	m, err := ReadTable(strings.NewReader(tab))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Transforms(m)
	if err != nil {
		t.Fatal(err)
	}
	// [1 0 0 1]·T = (0, 1, 0) + (1, 2, 3).
	if got := tr[0].Apply([3]float64{1, 0, 0}); got != [3]float64{1, 3, 3} {
		t.Fatalf("(1,0,0) ↦ %v, want (1,3,3)", got)
	}
	if _, err := ReadTable(strings.NewReader("1 2\n3\n")); err == nil {
		t.Error("ragged table accepted")
	}
}

func FuzzReadDMAT(f *testing.F) {
	b, _ := os.ReadFile("testdata/small.dmat")
	f.Add(b)
	var buf bytes.Buffer
	m, _ := ReadDMAT(bytes.NewReader(b))
	WriteDMAT(&buf, m, true)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadDMAT(bytes.NewReader(data))
		if err == nil && len(m.Data) != m.Rows*m.Cols {
			t.Fatalf("%d values for %dx%d", len(m.Data), m.Rows, m.Cols)
		}
	})
}

func FuzzReadTGF(f *testing.F) {
	b, _ := os.ReadFile("testdata/chain.tgf")
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadTGF(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, bn := range g.Bones {
			if bn[0] < 0 || bn[1] < 0 || bn[0] >= len(g.Joints) || bn[1] >= len(g.Joints) {
				t.Fatalf("bone %v out of range", bn)
			}
		}
	})
}
