package libigl

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
)

func TestReadDMAT(t *testing.T) {
	// Every file holds the 3×2 matrix [1 4; 2 5; 3 6] ("2 3": 2 columns,
	// 3 rows, values column-major).
	for _, name := range []string{"small.dmat", "small-binary.dmat", "small-binary-1line.dmat"} {
		t.Run(name, func(t *testing.T) {
			m, err := ReadDMAT(bytes.NewReader(testdata(t, name)))
			if err != nil {
				t.Fatal(err)
			}
			if m.Rows != 3 || m.Cols != 2 || m.At(0, 1) != 4 || m.At(2, 0) != 3 || m.At(2, 1) != 6 {
				t.Fatalf("%+v", m)
			}
		})
	}
}

func TestDMATRoundTrip(t *testing.T) {
	m := &Matrix{Rows: 2, Cols: 3, Data: []float64{1, -2.5, 1e-300, 0.1, 3, 1e17}}
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
			t.Fatalf("binary=%v: %d×%d", bin, back.Rows, back.Cols)
		}
		for k := range m.Data {
			if back.Data[k] != m.Data[k] {
				t.Fatalf("binary=%v: value %d is %v, wrote %v", bin, k, back.Data[k], m.Data[k])
			}
		}
	}
	for _, bin := range []bool{false, true} {
		var buf bytes.Buffer
		if err := WriteDMAT(&buf, &Matrix{}, bin); err != nil {
			t.Fatal(err)
		}
		if e, err := ReadDMAT(&buf); err != nil || e.Rows != 0 || e.Cols != 0 {
			t.Errorf("empty matrix, binary=%v: %v %+v", bin, err, e)
		}
	}
	if err := WriteDMAT(&bytes.Buffer{}, &Matrix{Rows: 2, Cols: 2, Data: []float64{1}}, false); err == nil {
		t.Error("a matrix with missing data was written")
	}
}

func TestReadDMATErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     string
		is     error
		line   int
		offset int64
		want   string
	}{
		{"empty", "", format.ErrTruncated, 1, -1, "no header"},
		{"header", "x y\n", nil, 1, -1, "bad header"},
		{"three numbers", string(testdata(t, "invalid-header.dmat")), nil, 1, -1, "bad header"},
		{"negative", "-1 2\n", nil, 1, -1, "bad header"},
		{"binary header", "0 0\n2\n", nil, 2, -1, "bad binary header"},
		{"huge", "99999999 99999999\n", nil, 1, -1, "too large"},
		{"ascii truncated", string(testdata(t, "invalid-truncated.dmat")), format.ErrTruncated, 0, -1, "value 6 of 6 (row 2, column 3)"},
		{"ascii nan", "1 1\nnan\n", nil, 0, -1, "bad number"},
		{"binary truncated", "0 0\n2 3\n\x00\x00", format.ErrTruncated, 0, 8, "value 1 of 6"},
		{"binary nan", string(testdata(t, "invalid-nan.dmat")), nil, 0, 8 + 3*8, "value 4 (row 1, column 2) is not finite"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDMAT(strings.NewReader(tc.in))
			var pe *format.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a ParseError containing %q", err, tc.want)
			}
			if pe.Line != tc.line || pe.Offset != tc.offset {
				t.Errorf("line %d offset %d, want %d %d", pe.Line, pe.Offset, tc.line, tc.offset)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err = %v, want %v", err, tc.is)
			}
		})
	}
}

func TestReadTable(t *testing.T) {
	m, err := ReadTable(bytes.NewReader(testdata(t, "quarter-turn.Tmat")))
	if err != nil || m.Rows != 4 || m.Cols != 3 || m.At(1, 0) != -1 || m.At(3, 2) != 3 {
		t.Fatalf("%v %+v", err, m)
	}
	for in, want := range map[string]string{"1 2\n3\n": "earlier rows have 2", "1 x\n": "bad number", "\n\n": "empty table"} {
		if _, err := ReadTable(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", in, err, want)
		}
	}
}
