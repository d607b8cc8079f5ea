package libigl

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func seeds(f *testing.F, pattern string) {
	files, _ := filepath.Glob(filepath.Join("testdata", pattern))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzReadDMAT checks that ReadDMAT never panics and that whatever it
// accepts survives an ASCII and a binary write unchanged.
func FuzzReadDMAT(f *testing.F) {
	seeds(f, "*.dmat")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadDMAT(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(m.Data) != m.Rows*m.Cols {
			t.Fatalf("%d values for %d×%d", len(m.Data), m.Rows, m.Cols)
		}
		for _, bin := range []bool{false, true} {
			var buf bytes.Buffer
			if err := WriteDMAT(&buf, m, bin); err != nil {
				t.Fatal(err)
			}
			back, err := ReadDMAT(&buf)
			if err != nil {
				t.Fatalf("binary=%v: %v", bin, err)
			}
			if back.Rows != m.Rows || back.Cols != m.Cols {
				t.Fatalf("binary=%v: %d×%d read back as %d×%d", bin, m.Rows, m.Cols, back.Rows, back.Cols)
			}
			for k := range m.Data {
				if back.Data[k] != m.Data[k] {
					t.Fatalf("binary=%v: value %d: %v read back as %v", bin, k, m.Data[k], back.Data[k])
				}
			}
		}
	})
}

// FuzzReadTGF checks that ReadTGF never panics and only returns bones
// between distinct joints it read.
func FuzzReadTGF(f *testing.F) {
	seeds(f, "*.tgf")
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadTGF(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, b := range g.Bones {
			if b[0] < 0 || b[1] < 0 || b[0] >= len(g.Joints) || b[1] >= len(g.Joints) || b[0] == b[1] {
				t.Fatalf("bone %v with %d joints", b, len(g.Joints))
			}
		}
	})
}

// FuzzReadTable checks that ReadTable never panics and returns a full
// rectangular matrix.
func FuzzReadTable(f *testing.F) {
	seeds(f, "*.Tmat")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadTable(bytes.NewReader(data))
		if err == nil && (m.Rows == 0 || len(m.Data) != m.Rows*m.Cols) {
			t.Fatalf("%d values for %d×%d", len(m.Data), m.Rows, m.Cols)
		}
	})
}
